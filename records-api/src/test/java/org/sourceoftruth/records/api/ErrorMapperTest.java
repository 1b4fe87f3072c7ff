package org.sourceoftruth.records.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.web.ErrorMapper;
import org.sourceoftruth.records.web.JsonResponseBody;

/**
 * Failures the checks before a query do not foresee still answer without server internals:
 * no exception class or message, no PostgreSQL text (the log has them, under the request id).
 */
class ErrorMapperTest {
    private static final List<String> INTERNAL_TEXT =
            List.of("ERROR:", "org.", "java.", "Exception", "SQL", "secret-detail", "IllegalState", "0x00");

    private final ErrorMapper mapper = new ErrorMapper();

    @Test
    void unexpectedFailuresAnswerAGeneric500() {
        Response r = mapper.any(new IllegalStateException("secret-detail in java.lang.String at org.example"));
        assertEquals(500, r.getStatus());
        String body = body(r);
        noInternals(body);
        assertEquals(true, body.contains("\"error\""), body);
    }

    @Test
    void databaseRefusalsAnswer400WithoutDatabaseText() {
        for (String state : List.of("22021", "22P02", "22001", "23502")) {
            Response r = mapper.db(new Db.DbException(new SQLException(
                    "ERROR: invalid byte sequence for encoding \"UTF8\": 0x00 (secret-detail)", state)));
            assertEquals(400, r.getStatus(), state);
            noInternals(body(r));
        }
        Response unknown = mapper.db(new Db.DbException(new SQLException("ERROR: secret-detail", "XX000")));
        assertEquals(500, unknown.getStatus());
        noInternals(body(unknown));
    }

    @Test
    void frameworkRefusalsDoNotRepeatTheFrameworkMessage() {
        Response r = mapper.any(new WebApplicationException("secret-detail from java.lang.NumberFormatException", 400));
        assertEquals(400, r.getStatus());
        noInternals(body(r));
    }

    private static String body(Response r) {
        return new String(((JsonResponseBody) r.getEntity()).bytes(), StandardCharsets.UTF_8);
    }

    private static void noInternals(String body) {
        for (String internal : INTERNAL_TEXT) {
            assertFalse(body.contains(internal), "shows " + internal + ": " + body);
        }
    }
}
