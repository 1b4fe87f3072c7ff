package org.sourceoftruth.records.db;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.List;
import org.sourceoftruth.model.Json;

/**
 * The engine's Java values as PostgreSQL's input text of their column's type: the form a value
 * takes as a text parameter, or inside a text array, that SQL then casts to the column's type
 * (the multi-row insert of {@code RowStore}, the probes of {@code UniquenessCheck}). The same
 * values {@link Db} binds one by one.
 */
public final class SqlText {
    private SqlText() {}

    /** The value's text, null for SQL NULL (a JSON null included, as {@link Db} binds it). */
    public static String of(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof String s) {
            return s;
        }
        if (value instanceof JsonNode node) {
            if (node.isNull() || node.isMissingNode()) {
                return null;
            }
            try {
                return Json.MAPPER.writeValueAsString(node);
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException(e);
            }
        }
        if (value instanceof Db.Inet inet) {
            return inet.value();
        }
        if (value instanceof BigDecimal decimal) {
            return decimal.toPlainString();
        }
        if (value instanceof List<?> list) {
            return arrayLiteral(list);
        }
        if (value instanceof byte[] bytes) {
            return "\\x" + java.util.HexFormat.of().formatHex(bytes);
        }
        // numbers, booleans, OffsetDateTime and LocalDate (ISO 8601): their toString is their input text
        return value.toString();
    }

    /** {"a","b"}: every element quoted, so that commas, braces and spaces in it stay its own. */
    private static String arrayLiteral(List<?> list) {
        StringBuilder out = new StringBuilder("{");
        for (Object element : list) {
            if (out.length() > 1) {
                out.append(',');
            }
            String text = of(element);
            if (text == null) {
                out.append("NULL");
                continue;
            }
            out.append('"');
            for (int i = 0; i < text.length(); i++) {
                char ch = text.charAt(i);
                if (ch == '"' || ch == '\\') {
                    out.append('\\');
                }
                out.append(ch);
            }
            out.append('"');
        }
        return out.append('}').toString();
    }
}
