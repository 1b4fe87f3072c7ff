package org.sourceoftruth.model.template;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.PrettyPrinter;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.util.Instantiatable;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * JSON text as Python's {@code json.dumps} writes it (the form NetBox sends): {@code ", "} and
 * {@code ": "} separators, non-ASCII characters escaped. Receivers parse JSON, so this only
 * matters for people comparing bodies by eye, but it costs nothing to match.
 */
public final class PythonJson {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Pattern UNICODE_ESCAPE = Pattern.compile("(?<!\\\\)((?:\\\\\\\\)*)\\\\u([0-9A-Fa-f]{4})");

    private PythonJson() {}

    /** {@code json.dumps(value)}: keys in their order, one line. */
    public static String dumps(Object value) {
        return write(value, null);
    }

    /**
     * Jinja's {@code |tojson}: keys sorted, and {@code < > & '} escaped so the text is safe
     * inside HTML as well.
     */
    static String dumpsForTemplate(Object value, Integer indent) {
        String json = write(sorted(value), indent);
        // each of the four characters below becomes six
        RenderGuard.allocateChars(6L * json.length());
        return json.replace("<", "\\u003c")
                .replace(">", "\\u003e")
                .replace("&", "\\u0026")
                .replace("'", "\\u0027");
    }

    private static String write(Object value, Integer indent) {
        ObjectWriter writer = MAPPER.writer(new PythonPrettyPrinter(indent == null ? -1 : Math.max(0, indent)))
                .with(JsonWriteFeature.ESCAPE_NON_ASCII)
                .with(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);
        try {
            // written through a writer that charges the render budget as the text grows, so a
            // value with exponentially many shared parts (or a huge indent) stops in time
            ChargingWriter out = new ChargingWriter();
            writer.writeValue(out, withoutUndefined(value));
            return lowerCaseHexEscapes(out.toString());
        } catch (JsonProcessingException e) {
            for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
                if (cause instanceof TemplateRenderException budgetExceeded) {
                    throw budgetExceeded; // Jackson wraps what the writer throws
                }
            }
            throw new TemplateRenderException("value cannot be written as JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new TemplateRenderException("value cannot be written as JSON: " + e.getMessage(), e);
        }
    }

    /**
     * Python writes the hex digits of its backslash-u escapes in lower case, Jackson in upper
     * case. Only real escapes are touched, not an escaped backslash followed by "u".
     */
    private static String lowerCaseHexEscapes(String json) {
        if (json.indexOf("\\u") < 0) {
            return json;
        }
        Matcher escape = UNICODE_ESCAPE.matcher(json);
        StringBuilder out = new StringBuilder(json.length());
        while (escape.find()) {
            escape.appendReplacement(
                    out,
                    Matcher.quoteReplacement(
                            escape.group(1) + "\\u" + escape.group(2).toLowerCase(Locale.ROOT)));
        }
        escape.appendTail(out);
        return out.toString();
    }

    /** A StringWriter whose growth is charged to the render budget of the current thread. */
    private static final class ChargingWriter extends java.io.StringWriter {
        @Override
        public void write(int c) {
            RenderGuard.allocate(RenderGuard.BYTES_PER_CHAR);
            super.write(c);
        }

        @Override
        public void write(char[] chars, int offset, int length) {
            RenderGuard.allocate(RenderGuard.BYTES_PER_CHAR * length);
            super.write(chars, offset, length);
        }

        @Override
        public void write(String s, int offset, int length) {
            RenderGuard.allocate(RenderGuard.BYTES_PER_CHAR * length);
            super.write(s, offset, length);
        }
    }

    private static Object withoutUndefined(Object value) {
        if (value == Undefined.INSTANCE) {
            return null;
        }
        if (value instanceof Map<?, ?> map) {
            // copies are charged: a value may share its parts many times over
            RenderGuard.allocateElements(3L * map.size());
            Map<Object, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put(k, withoutUndefined(v)));
            return copy;
        }
        if (value instanceof List<?> list) {
            RenderGuard.allocateElements(list.size());
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(v -> copy.add(withoutUndefined(v)));
            return copy;
        }
        return value;
    }

    private static Object sorted(Object value) {
        if (value instanceof Map<?, ?> map) {
            RenderGuard.allocateElements(3L * map.size());
            Map<String, Object> copy = new TreeMap<>();
            map.forEach((k, v) -> copy.put(String.valueOf(k), sorted(v)));
            return copy;
        }
        if (value instanceof List<?> list) {
            RenderGuard.allocateElements(list.size());
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(v -> copy.add(sorted(v)));
            return Collections.unmodifiableList(copy);
        }
        return value;
    }

    /** Python's separators; with an indent, one member per line like {@code json.dumps(indent=n)}. */
    private static final class PythonPrettyPrinter implements PrettyPrinter, Instantiatable<PythonPrettyPrinter> {
        private final int indent;
        private int depth;

        PythonPrettyPrinter(int indent) {
            this.indent = indent;
        }

        @Override
        public PythonPrettyPrinter createInstance() {
            return new PythonPrettyPrinter(indent);
        }

        private void newline(JsonGenerator g) throws IOException {
            if (indent >= 0) {
                g.writeRaw('\n');
                g.writeRaw(" ".repeat(indent * depth));
            }
        }

        @Override
        public void writeRootValueSeparator(JsonGenerator g) {}

        @Override
        public void writeStartObject(JsonGenerator g) throws IOException {
            g.writeRaw('{');
            depth++;
        }

        @Override
        public void beforeObjectEntries(JsonGenerator g) throws IOException {
            newline(g);
        }

        @Override
        public void writeObjectFieldValueSeparator(JsonGenerator g) throws IOException {
            g.writeRaw(": ");
        }

        @Override
        public void writeObjectEntrySeparator(JsonGenerator g) throws IOException {
            if (indent >= 0) {
                g.writeRaw(',');
                newline(g);
            } else {
                g.writeRaw(", ");
            }
        }

        @Override
        public void writeEndObject(JsonGenerator g, int entries) throws IOException {
            depth--;
            if (entries > 0) {
                newline(g);
            }
            g.writeRaw('}');
        }

        @Override
        public void writeStartArray(JsonGenerator g) throws IOException {
            g.writeRaw('[');
            depth++;
        }

        @Override
        public void beforeArrayValues(JsonGenerator g) throws IOException {
            newline(g);
        }

        @Override
        public void writeArrayValueSeparator(JsonGenerator g) throws IOException {
            writeObjectEntrySeparator(g);
        }

        @Override
        public void writeEndArray(JsonGenerator g, int values) throws IOException {
            depth--;
            if (values > 0) {
                newline(g);
            }
            g.writeRaw(']');
        }
    }
}
