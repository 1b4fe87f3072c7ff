package org.sourceoftruth.records.contract;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.sourceoftruth.records.contract.Contract.Endpoint;

/**
 * The per-endpoint checks other than filters: the full representation, the brief one, the
 * required set of an empty POST, and the action paths. Each returns the items that passed and
 * the problems, for {@link ContractReport}.
 */
final class EndpointChecks {
    /** Items checked and what failed (one line per failed item). */
    record Tally(int total, List<String> failures, List<String> remarks) {
        int passed() {
            return total - failures.size();
        }
    }

    private final ShapeChecker shapes;

    EndpointChecks(ShapeChecker shapes) {
        this.shapes = shapes;
    }

    /** Every contract field present in {@code obj} with the contract's type. */
    Tally fields(Map<String, JsonNode> contractFields, JsonNode obj) {
        return fields(contractFields, obj, null);
    }

    /**
     * {@link #fields(Map, JsonNode)}; with the endpoint, a related object or choice that is unset
     * may be null where the endpoint's request schema makes it optional: DRF renders an unset
     * (None) attribute as null whatever the field's read schema says (a config template's
     * data_source, a choice set's base_choices).
     */
    /**
     * Null without a cable path in NetBox 4.4 though its schema says boolean: the serializer returns
     * {@code obj._path and obj._path.is_complete and obj._path.is_active}, None when there is no path.
     */
    private static final String UNREACHED = "connected_endpoints_reachable";

    /**
     * A token's plaintext ({@code token}, NetBox 4.5+), null on every read but the response that
     * created the token though its schema says string: NetBox's TokenSerializer reads
     * {@code instance.token}, which only a new instance holds, and DRF renders None as null.
     */
    private static final String ONCE_SHOWN = "users/tokens.token";

    Tally fields(Map<String, JsonNode> contractFields, JsonNode obj, Endpoint ep) {
        List<String> failures = new ArrayList<>();
        for (Map.Entry<String, JsonNode> f : contractFields.entrySet()) {
            JsonNode value = obj == null ? null : obj.get(f.getKey());
            if (value != null
                    && value.isNull()
                    && ep != null
                    && optionalRelationOrChoice(ep, f.getKey(), f.getValue())) {
                continue;
            }
            if (value != null
                    && value.isNull()
                    && (f.getKey().equals(UNREACHED) || ep != null && ONCE_SHOWN.equals(ep.key() + "." + f.getKey()))) {
                continue;
            }
            String p = obj == null ? "no object" : shapes.problem(value, f.getValue());
            if (p != null) {
                failures.add(f.getKey() + ": " + p);
            }
        }
        List<String> remarks = new ArrayList<>();
        if (obj != null && obj.isObject()) {
            Set<String> extra = new TreeSet<>();
            obj.fieldNames().forEachRemaining(extra::add);
            extra.removeAll(contractFields.keySet());
            if (!extra.isEmpty()) {
                remarks.add("fields beyond the contract: " + extra);
            }
        }
        return new Tally(contractFields.size(), failures, remarks);
    }

    private static boolean optionalRelationOrChoice(Endpoint ep, String name, JsonNode readSpec) {
        String type = readSpec.path("type").asText();
        JsonNode write = ep.spec().path("write_fields").path(name);
        boolean required = false;
        for (JsonNode r : ep.spec().path("required")) {
            required |= r.asText().equals(name);
        }
        return (type.startsWith("nested:") || type.startsWith("choice")) && write.isObject() && !required;
    }

    /** The object as {@code ?brief=1} lists it (anchored on its id), or null. */
    JsonNode briefOf(Endpoint ep, long id) {
        Http.Reply r = Http.get(ep.path(), Map.of("brief", List.of("1"), "id", List.of(String.valueOf(id))));
        JsonNode first = r.body() == null ? null : r.body().path("results").path(0);
        return r.status() == 200 && first != null && first.isObject() ? first : null;
    }

    /** POST {} must be a 400 naming exactly the contract's required fields. */
    Tally required(Endpoint ep) {
        if (!ep.creatable()) {
            return new Tally(0, List.of(), List.of());
        }
        Http.Reply r = Http.post(ep.path(), Map.of());
        Set<String> want = new TreeSet<>(ep.required());
        Set<String> got = new TreeSet<>();
        if (r.status() == 400 && r.body() != null && r.body().isObject()) {
            r.body().fieldNames().forEachRemaining(got::add);
        }
        if (r.status() != 400) {
            return new Tally(1, List.of("POST {} → " + r.describe() + " (contract requires " + want + ")"), List.of());
        }
        if (want.equals(got)) {
            return new Tally(1, List.of(), List.of());
        }
        Set<String> missing = new TreeSet<>(want);
        missing.removeAll(got);
        Set<String> extra = new TreeSet<>(got);
        extra.removeAll(want);
        return new Tally(
                1,
                List.of("POST {} names " + got + "; contract requires " + want
                        + (missing.isEmpty() ? "" : ", not named: " + missing)
                        + (extra.isEmpty() ? "" : ", beyond: " + extra)),
                List.of());
    }

    /** Each action path answers its methods with something other than 404/405. */
    Tally actions(Endpoint ep, long id) {
        List<String> failures = new ArrayList<>();
        int total = 0;
        for (Map.Entry<String, List<String>> a : ep.actions().entrySet()) {
            String path = ep.path() + a.getKey().replace("{id}", String.valueOf(id));
            for (String method : a.getValue()) {
                total++;
                Http.Reply r = method.equals("get") ? Http.get(path) : Http.post(path, Map.of());
                if (r.status() == 404 || r.status() == 405 || r.status() >= 500) {
                    failures.add(method.toUpperCase() + " " + a.getKey() + " → " + r.describe());
                }
            }
        }
        return new Tally(total, failures, List.of());
    }
}
