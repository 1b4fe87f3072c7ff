package org.sourceoftruth.records.web;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.MessageBodyReader;
import jakarta.ws.rs.ext.Provider;
import java.io.IOException;
import java.io.InputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Decodes every request body that an endpoint takes as text (the JSON bodies, see
 * {@link JsonBody}) strictly, as DRF does: in the charset the Content-Type names when the JVM
 * knows it (Django ignores one it does not know), else UTF-8. A byte sequence that is not valid
 * in it is a 400 parse error with Python's UnicodeDecodeError text, never a U+FFFD stored in its
 * place, which is what the framework's own reader would decode it to.
 */
@Provider
@Consumes(MediaType.WILDCARD)
public class StrictTextBodyReader implements MessageBodyReader<String> {

    @Override
    public boolean isReadable(Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType) {
        return type == String.class;
    }

    @Override
    public String readFrom(
            Class<String> type,
            Type genericType,
            Annotation[] annotations,
            MediaType mediaType,
            MultivaluedMap<String, String> httpHeaders,
            InputStream entityStream)
            throws IOException {
        return decode(entityStream.readAllBytes(), charsetOf(mediaType));
    }

    /** The body as text, or a 400 "JSON parse error - '<codec>' codec can't decode ..." naming the first bad byte. */
    static String decode(byte[] body, Charset charset) {
        try {
            return charset.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body))
                    .toString();
        } catch (CharacterCodingException e) {
            String reason = charset.equals(StandardCharsets.UTF_8)
                    ? firstUtf8Error(body)
                    : "'" + charset.name().toLowerCase(java.util.Locale.ROOT) + "' codec can't decode the body";
            throw ApiException.detail(400, "JSON parse error - " + reason);
        }
    }

    private static Charset charsetOf(MediaType type) {
        String name = type == null ? null : type.getParameters().get(MediaType.CHARSET_PARAMETER);
        if (name != null) {
            try {
                return Charset.forName(name.trim());
            } catch (IllegalArgumentException unknownOrIllegal) {
                // Django keeps its default for a charset it does not know
            }
        }
        return StandardCharsets.UTF_8;
    }

    /**
     * Python's message for the first byte sequence that is not UTF-8, with its classification:
     * a byte that cannot start a character (0x80-0xC1, 0xF5-0xFF), a start byte followed by one
     * that does not continue it (including overlong forms, surrogates and code points above
     * U+10FFFF), or a sequence cut short by the end of the body.
     */
    static String firstUtf8Error(byte[] b) {
        int i = 0;
        while (i < b.length) {
            int c = b[i] & 0xff;
            if (c < 0x80) {
                i++;
                continue;
            }
            if (c < 0xC2 || c > 0xF4) {
                return utf8Error(b, i, i + 1, "invalid start byte");
            }
            int need = c < 0xE0 ? 1 : c < 0xF0 ? 2 : 3;
            for (int k = 1; k <= need; k++) {
                if (i + k >= b.length) {
                    return utf8Error(b, i, b.length, "unexpected end of data");
                }
                int d = b[i + k] & 0xff;
                boolean continues = (d & 0xC0) == 0x80;
                if (k == 1) {
                    continues &= !(c == 0xE0 && d < 0xA0) // overlong
                            && !(c == 0xED && d > 0x9F) // a surrogate
                            && !(c == 0xF0 && d < 0x90) // overlong
                            && !(c == 0xF4 && d > 0x8F); // above U+10FFFF
                }
                if (!continues) {
                    return utf8Error(b, i, i + k, "invalid continuation byte");
                }
            }
            i += need + 1;
        }
        return "'utf-8' codec can't decode the body";
    }

    private static String utf8Error(byte[] b, int start, int end, String reason) {
        if (end - start == 1) {
            return String.format(
                    "'utf-8' codec can't decode byte 0x%02x in position %d: %s", b[start] & 0xff, start, reason);
        }
        return "'utf-8' codec can't decode bytes in position " + start + "-" + (end - 1) + ": " + reason;
    }
}
