package org.sourceoftruth.records.engine.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.db.SqlText;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.UniqueRule;
import org.sourceoftruth.records.web.ApiException;

/**
 * A write refused by the unique index of a declared rule: a concurrent request stored the same
 * key between this request's check and its write (the check cannot see uncommitted rows). The
 * write's transaction is rolled back; the writer's caller runs the request again, whose check
 * then sees the other row and answers exactly as for any duplicate ({@code ModelService}). Where
 * that is not possible (the write is part of a larger transaction, or it lost the race again),
 * this is answered as it is: 400 with the rule's message under the rule's key, on the items of
 * the request whose key PostgreSQL's detail names (on every item the index covers when it names
 * none of them, as a server whose messages are not in English would).
 */
public final class UniqueViolation extends ApiException {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final transient UniqueIndexes.Requirement requirement;

    private UniqueViolation(JsonNode body, UniqueIndexes.Requirement requirement) {
        super(400, body);
        this.requirement = requirement;
    }

    /** The rule whose index refused the write. */
    public UniqueIndexes.Requirement requirement() {
        return requirement;
    }

    /**
     * The violation {@code e} as an answer: a UniqueViolation when it is a unique violation of a
     * declared rule's index, else {@code e} itself (left to the error mapper).
     *
     * @param items the rows written, one per item of the request in its order (null for items
     *              not written); the rows whose values the index covers get the message
     * @param bulk  whether the request was a list (its errors are a list aligned with the items)
     */
    static RuntimeException of(Db.DbException e, UniqueIndexes indexes, Model model, List<Row> items, boolean bulk) {
        if (!"23505".equals(e.sqlState())) {
            return e;
        }
        Optional<UniqueIndexes.Requirement> found = indexes.enforcedBy(violatedIndex(e));
        if (found.isEmpty()) {
            return e;
        }
        UniqueIndexes.Requirement req = found.get();
        UniqueRule rule = req.rule();
        List<Boolean> covered = items.stream()
                .map(row -> row != null && req.model() == model && covers(req, row))
                .toList();
        // of those, the rows whose key PostgreSQL's detail names ("Key (name)=(edge) already exists.")
        List<String> terms = indexes.keyTerms(violatedIndex(e));
        String detail = detail(e);
        List<Boolean> named = new java.util.ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            named.add(covered.get(i)
                    && detail != null
                    && detail.endsWith(")=(" + keyText(terms, items.get(i)) + ") already exists."));
        }
        if (named.contains(true)) {
            covered = named;
        }
        boolean none = !covered.contains(true);
        ArrayNode list = NODES.arrayNode();
        JsonNode single = null;
        for (int i = 0; i < items.size(); i++) {
            Row row = items.get(i);
            Map<String, List<String>> errors = new LinkedHashMap<>();
            if (row != null && (covered.get(i) || none)) {
                errors.put(rule.errorKey(), List.of(req.model() == model ? rule.messageFor(row) : rule.message()));
                single = single == null ? ApiException.errorsNode(errors) : single;
            }
            list.add(ApiException.errorsNode(errors));
        }
        if (single == null) {
            single = ApiException.errorsNode(Map.of(rule.errorKey(), List.of(rule.message())));
        }
        return new UniqueViolation(bulk ? list : single, req);
    }

    /** Whether the index covers the row: the rule applies to it, with the index's pattern of NULLs. */
    private static boolean covers(UniqueIndexes.Requirement req, Row row) {
        if (!req.rule().appliesTo(row)) {
            return false;
        }
        for (String column : req.rule().columns()) {
            if ((row.get(column) == null) != req.nullColumns().contains(column)) {
                return false;
            }
        }
        return true;
    }

    /** The row's values of the index's key terms as PostgreSQL writes them: "edge, 12". */
    private static String keyText(List<String> terms, Row row) {
        List<String> values = new java.util.ArrayList<>();
        for (String term : terms) {
            boolean lower = term.startsWith("lower(") && term.endsWith(")");
            Object v = row.get(lower ? term.substring("lower(".length(), term.length() - 1) : term);
            String text = v == null ? "null" : SqlText.of(v);
            values.add(lower ? text.toLowerCase(Locale.ROOT) : text);
        }
        return String.join(", ", values);
    }

    /** The name of the index PostgreSQL reports as violated (pgjdbc's server message has it). */
    private static String violatedIndex(Db.DbException e) {
        ServerErrorMessage message = serverMessage(e);
        return message == null ? null : message.getConstraint();
    }

    private static String detail(Db.DbException e) {
        ServerErrorMessage message = serverMessage(e);
        return message == null ? null : message.getDetail();
    }

    private static ServerErrorMessage serverMessage(Db.DbException e) {
        for (Throwable t = e.getCause(); t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof PSQLException psql) {
                return psql.getServerErrorMessage();
            }
        }
        return null;
    }
}
