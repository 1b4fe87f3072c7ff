package org.sourceoftruth.model.template;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Python's view of lists, dicts and strings as sequences in a template: item access (missing
 * items are {@link Undefined}), iteration, {@code in}, len(), join, first/last, map(attribute=)
 * and dict methods, each charging the elements it builds to the render's memory budget.
 */
final class SequenceFunctions {
    private SequenceFunctions() {}

    static List<Object> newList(java.util.Collection<?> elements) {
        RenderGuard.allocateElements(elements.size());
        return Collections.unmodifiableList(new ArrayList<>(elements));
    }

    static Map<?, ?> mapping(Object value, String method) {
        if (value instanceof Map<?, ?> map) {
            return map;
        }
        throw new TemplateRenderException(
                "'" + PlainValues.typeName(value) + "' object has no method '" + method + "'");
    }

    static Object getItem(Object target, Object key) {
        if (target instanceof Map<?, ?> map) {
            return map.containsKey(key) ? map.get(key) : Undefined.INSTANCE;
        }
        if (target instanceof List<?> list) {
            Integer index = indexOf(key);
            if (index == null) {
                return Undefined.INSTANCE;
            }
            int resolved = index < 0 ? list.size() + index : index;
            return resolved >= 0 && resolved < list.size() ? list.get(resolved) : Undefined.INSTANCE;
        }
        if (target instanceof String s) {
            Integer index = indexOf(key);
            if (index != null) {
                int resolved = index < 0 ? s.length() + index : index;
                return resolved >= 0 && resolved < s.length() ? String.valueOf(s.charAt(resolved)) : Undefined.INSTANCE;
            }
        }
        return Undefined.INSTANCE;
    }

    /** An integer list index from a number or from the digits of an attribute name ({@code tags.0}). */
    static Integer indexOf(Object key) {
        if (PlainValues.isInteger(key)) {
            return ((Number) key).intValue();
        }
        if (key instanceof String s && s.matches("-?\\d{1,9}")) {
            return Integer.parseInt(s);
        }
        return null;
    }

    static List<?> iterate(Object value) {
        if (value == null || value == Undefined.INSTANCE) {
            return List.of();
        }
        if (value instanceof List<?> list) {
            return list;
        }
        if (value instanceof Map<?, ?> map) {
            RenderGuard.allocateElements(map.size());
            return List.copyOf(map.keySet());
        }
        if (value instanceof String s) {
            // one new one-character string per character
            RenderGuard.allocate(s.length()
                    * (RenderGuard.BYTES_PER_ELEMENT + RenderGuard.BYTES_PER_STRING + RenderGuard.BYTES_PER_CHAR * 2));
            List<String> chars = new ArrayList<>(s.length());
            s.codePoints().forEach(cp -> chars.add(new String(Character.toChars(cp))));
            return chars;
        }
        throw new TemplateRenderException("'" + PlainValues.typeName(value) + "' object is not iterable");
    }

    static boolean contains(Object haystack, Object needle) {
        if (haystack instanceof String s) {
            if (!(needle instanceof String n)) {
                throw new TemplateRenderException(
                        "'in <string>' requires string as left operand, not " + PlainValues.typeName(needle));
            }
            return s.contains(n);
        }
        if (haystack instanceof List<?> list) {
            return list.stream().anyMatch(element -> PlainValues.pyEquals(element, needle));
        }
        if (haystack instanceof Map<?, ?> map) {
            return map.containsKey(needle);
        }
        if (haystack == Undefined.INSTANCE) {
            return false;
        }
        throw new TemplateRenderException("argument of type '" + PlainValues.typeName(haystack) + "' is not iterable");
    }

    static long length(Object value) {
        if (value == Undefined.INSTANCE) {
            return 0;
        }
        if (value instanceof String s) {
            return s.codePointCount(0, s.length());
        }
        if (value instanceof List<?> list) {
            return list.size();
        }
        if (value instanceof Map<?, ?> map) {
            return map.size();
        }
        throw new TemplateRenderException("object of type '" + PlainValues.typeName(value) + "' has no len()");
    }

    static String join(Object value, String separator, Object attribute) {
        List<?> items = attribute == null || attribute == Undefined.INSTANCE
                ? iterate(value)
                : mapAttribute(value, PlainValues.str(attribute));
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < items.size(); i++) {
            RenderGuard.check();
            String item = PlainValues.str(items.get(i));
            RenderGuard.allocateChars((i > 0 ? separator.length() : 0) + item.length());
            if (i > 0) {
                out.append(separator);
            }
            out.append(item);
        }
        return out.toString();
    }

    static Object first(Object value) {
        List<?> items = iterate(value);
        return items.isEmpty() ? Undefined.INSTANCE : items.get(0);
    }

    static Object last(Object value) {
        List<?> items = iterate(value);
        return items.isEmpty() ? Undefined.INSTANCE : items.get(items.size() - 1);
    }

    /** {@code items|map(attribute='site.name')}: the attribute of every item; dots go deeper. */
    static List<Object> mapAttribute(Object value, String attribute) {
        List<?> items = iterate(value);
        RenderGuard.allocateElements(items.size());
        List<Object> out = new ArrayList<>();
        for (Object item : items) {
            Object current = item;
            for (String part : attribute.split("\\.")) {
                current = getItem(current, part);
            }
            out.add(current);
        }
        return Collections.unmodifiableList(out);
    }

    static List<List<Object>> items(Object value) {
        Map<?, ?> map = mapping(value, "items");
        RenderGuard.allocate(map.size() * (RenderGuard.BYTES_PER_ELEMENT * 3 + RenderGuard.BYTES_PER_STRING));
        List<List<Object>> out = new ArrayList<>();
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            out.add(Arrays.asList(entry.getKey(), entry.getValue()));
        }
        return Collections.unmodifiableList(out);
    }
}
