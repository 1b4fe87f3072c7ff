package org.sourceoftruth.records.changelog;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.sourceoftruth.model.ChangeEvent;
import org.sourceoftruth.records.auth.Access;
import org.sourceoftruth.records.web.AnswersOptions;

/**
 * The change-event topic's contract: the AsyncAPI 3 document of {@code records.object-changes}
 * (its key, headers, payload schema, ordering and delivery guarantees), at
 * {@code GET /api/schema/asyncapi/}. The document lives in common-model next to {@link ChangeEvent},
 * the class that writes the payload; a test keeps it equal to what the relay publishes.
 */
@Path("/api/schema/asyncapi/")
@Tag(name = "schema")
public class TopicContractResource implements AnswersOptions {

    /** Where common-model keeps the document. */
    static final String DOCUMENT = "/org/sourceoftruth/model/asyncapi.json";

    private static final byte[] BYTES = load();

    @Inject
    Access access;

    @GET
    @Operation(
            operationId = "schema_asyncapi_retrieve",
            description = "The AsyncAPI document of the change-event topic.")
    public Response document() {
        access.requireAuthenticated();
        return Response.ok(BYTES, "application/json").build();
    }

    private static byte[] load() {
        try (InputStream in = ChangeEvent.class.getResourceAsStream(DOCUMENT)) {
            if (in == null) {
                throw new IllegalStateException("common-model lacks " + DOCUMENT);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
