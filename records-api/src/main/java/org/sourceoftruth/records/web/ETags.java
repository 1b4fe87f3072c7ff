package org.sourceoftruth.records.web;

import jakarta.ws.rs.core.Response;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Function;
import org.sourceoftruth.records.model.Row;

/** NetBox 4.6's ETags of objects and its If-Match precondition on detail writes. */
public final class ETags {
    private static final DateTimeFormatter ETAG_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSxxx");

    private ETags() {}

    /** The weak ETag of a row: the isoformat of last_updated (or created); null without either. */
    public static String of(Row row) {
        Object t = row.get("last_updated");
        if (t == null) {
            t = row.get("created");
        }
        if (!(t instanceof OffsetDateTime odt)) {
            return null;
        }
        return "W/\"" + ETAG_TIME.format(odt.withOffsetSameInstant(ZoneOffset.UTC)) + "\"";
    }

    /**
     * The check an If-Match header asks for, applied to the stored row before it is written:
     * a mismatch is 412 with the current ETag. Null when the header is absent.
     */
    public static Function<Row, String> ifMatch(String header) {
        if (header == null || header.isBlank()) {
            return null;
        }
        Set<String> wanted = new HashSet<>();
        Arrays.stream(header.split(",")).map(String::trim).forEach(wanted::add);
        return row -> {
            String current = of(row);
            if (wanted.contains("*") || wanted.contains(current)) {
                return current;
            }
            throw ApiException.detail(412, "Precondition failed.").withHeader("ETag", current);
        };
    }

    /** The response with an ETag header, when there is one. */
    public static Response withETag(Response r, String etag) {
        if (etag == null) {
            return r;
        }
        return Response.fromResponse(r).header("ETag", etag).build();
    }
}
