package org.sourceoftruth.records.web;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;
import jakarta.ws.rs.core.StreamingOutput;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import org.sourceoftruth.model.Json;

/**
 * A JSON response body, serialised straight into the response's pooled network buffers when it
 * is sent ({@code quarkus.rest.output-buffer-size} is large enough for a page to go out whole,
 * with its Content-Length). Serialising to a byte array first cost a full device page (~180 KB)
 * two copies and two zeroed arrays more, a tenth of the list's CPU in a profile. The tree stays
 * readable for response filters (the browsable API renders it as HTML).
 *
 * @param indent spaces per level ({@code Accept: application/json; indent=N}), 0 for compact
 */
public record JsonResponseBody(JsonNode tree, int indent) implements StreamingOutput {
    /** Neither closes nor flushes the response's stream: a flush would send the body chunked. */
    private static final ObjectWriter COMPACT = Json.MAPPER
            .writer()
            .without(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
            .without(JsonGenerator.Feature.FLUSH_PASSED_TO_STREAM);

    @Override
    public void write(OutputStream out) throws IOException {
        writer().writeValue(out, tree);
    }

    /** The serialised body (for tests and callers that need the bytes themselves). */
    public byte[] bytes() {
        try {
            return writer().writeValueAsBytes(tree);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private ObjectWriter writer() {
        if (indent <= 0) {
            return COMPACT;
        }
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter()
                .withObjectIndenter(new DefaultIndenter(" ".repeat(indent), "\n"))
                .withArrayIndenter(new DefaultIndenter(" ".repeat(indent), "\n"));
        return COMPACT.with(printer);
    }
}
