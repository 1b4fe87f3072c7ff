package org.sourceoftruth.records.web;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;
import jakarta.ws.rs.core.StreamingOutput;
import java.io.ByteArrayOutputStream;
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
 * <p>A body may also be {@link Content} written as it is produced (a page whose rows with large
 * values are read while it is written): larger than the buffer, it goes out chunked.
 */
public final class JsonResponseBody implements StreamingOutput {
    /** Neither closes nor flushes the response's stream: a flush would send the body chunked. */
    private static final ObjectWriter COMPACT = Json.MAPPER
            .writer()
            .without(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
            .without(JsonGenerator.Feature.FLUSH_PASSED_TO_STREAM);

    /** A body produced while it is written. */
    public interface Content {
        /** Writes the body's one JSON value. */
        void write(JsonGenerator json) throws IOException;

        /** The whole body as a tree (for response filters that show it otherwise). */
        JsonNode tree();
    }

    private final JsonNode tree;
    private final Content content;
    private final int indent;

    /** @param indent spaces per level ({@code Accept: application/json; indent=N}), 0 for compact */
    public JsonResponseBody(JsonNode tree, int indent) {
        this.tree = tree;
        this.content = null;
        this.indent = indent;
    }

    public JsonResponseBody(Content content, int indent) {
        this.tree = null;
        this.content = content;
        this.indent = indent;
    }

    /** The body as a tree; a body written as it is produced is produced whole for it. */
    public JsonNode tree() {
        return tree != null ? tree : content.tree();
    }

    public int indent() {
        return indent;
    }

    @Override
    public void write(OutputStream out) throws IOException {
        if (tree != null) {
            writer().writeValue(out, tree);
            return;
        }
        try (JsonGenerator json = writer().createGenerator(out)) {
            content.write(json);
        }
    }

    /** The serialised body (for tests and callers that need the bytes themselves). */
    public byte[] bytes() {
        try {
            if (tree != null) {
                return writer().writeValueAsBytes(tree);
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            write(out);
            return out.toByteArray();
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
