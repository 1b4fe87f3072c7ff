package org.sourceoftruth.records.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sourceoftruth.records.contract.Contract.Endpoint;

/**
 * Creates objects for contract endpoints generically, from the contract's {@code required} and
 * {@code write_fields}: foreign keys get an object of their target (created recursively and
 * memoised), choices their first value, strings unique values ({@link SampleValues}), generic
 * relations a site or an interface. Each endpoint has up to three instances:
 * <ul>
 * <li>{@link Role#PRIMARY}: the object under test; after creation every optional writable field
 * is filled in by one PATCH (fields the server refuses are dropped and noted), so filters have
 * values to match. Every other object points at primaries, so related objects agree (a device's
 * rack and the device share the primary site).</li>
 * <li>{@link Role#OTHER}: a second object with only the required fields that nothing points at,
 * the non-matching value of relation filters.</li>
 * <li>{@link Role#SPARE}: the target of self-references (a region's parent), kept apart from
 * OTHER so a tree filter matching descendants cannot make OTHER match.</li>
 * </ul>
 * Failures never abort the run: they are recorded per endpoint and the instance is null.
 */
final class ObjectFactory {
    enum Role {
        PRIMARY,
        OTHER,
        SPARE
    }

    /** An object the factory made (or found): id, the request ids of its creation and last update. */
    record Made(long id, String createRequestId, String updateRequestId, boolean found) {}

    private final Contract contract;
    private final Set<String> served;
    private final SampleValues samples = new SampleValues();
    private final Map<String, Made> made = new LinkedHashMap<>();
    private final Set<String> inProgress = new HashSet<>();
    private final Map<String, List<String>> findings = new LinkedHashMap<>();
    private final Map<String, List<String>> notes = new LinkedHashMap<>();
    /** Per endpoint, the body the server created its PRIMARY object from. */
    private final Map<String, Map<String, Object>> primaryBodies = new LinkedHashMap<>();

    ObjectFactory(Contract contract, Set<String> served) {
        this.contract = contract;
        this.served = served;
    }

    /** Problems of the API met while creating objects (server's required set differs, 500s...). */
    List<String> findings(String endpoint) {
        return findings.getOrDefault(endpoint, List.of());
    }

    /** What the harness could not do (optional fields the server refused to take). */
    List<String> notes(String endpoint) {
        return notes.getOrDefault(endpoint, List.of());
    }

    Made primary(String endpoint) {
        return instance(endpoint, Role.PRIMARY);
    }

    Made other(String endpoint) {
        return instance(endpoint, Role.OTHER);
    }

    /**
     * The body that created the endpoint's PRIMARY object (a valid create body whose unique
     * values that object now holds), or null when none was created.
     */
    Map<String, Object> primaryBody(String endpointKey) {
        primary(endpointKey);
        Map<String, Object> body = primaryBodies.get(endpointKey);
        return body == null ? null : new LinkedHashMap<>(body);
    }

    /** A new object of the endpoint, made from its required fields every time it is called (null if refused). */
    Made fresh(String endpointKey) {
        Endpoint ep = contract.endpoint(endpointKey);
        return ep == null || !served.contains(endpointKey) || !ep.creatable() ? null : create(ep, Role.OTHER);
    }

    /**
     * A new object of the endpoint from its required fields and {@code shape} (values a server
     * rule needs, see {@link GenericTargets#shapedTarget}), or null if refused.
     */
    Made fresh(String endpointKey, Map<String, Object> shape) {
        if (shape.isEmpty()) {
            return fresh(endpointKey);
        }
        Endpoint ep = contract.endpoint(endpointKey);
        if (ep == null || !served.contains(endpointKey) || !ep.creatable()) {
            return null;
        }
        Map<String, Object> body = body(ep, new ArrayList<>(ep.required()), Role.OTHER);
        body.putAll(shape);
        Http.Reply r = Http.post(ep.path(), body);
        return r.status() == 201 ? made(r) : null;
    }

    /** A fresh valid value for a write field of an endpoint (a unique string, a VLAN id...), or {@link SampleValues#NONE}. */
    Object sample(String endpointKey, String field) {
        Endpoint ep = contract.endpoint(endpointKey);
        JsonNode spec = ep == null ? null : ep.writeFields().get(field);
        // a field this service writes beyond NetBox 4.6's (a 4.4 client's token key): by its name only
        return samples.value(field, spec == null ? MissingNode.getInstance() : spec, samples.block(), false);
    }

    Made instance(String endpointKey, Role role) {
        String memo = endpointKey + "#" + role;
        if (made.containsKey(memo)) {
            return made.get(memo);
        }
        Endpoint ep = contract.endpoint(endpointKey);
        if (ep == null || !served.contains(endpointKey) || !inProgress.add(memo)) {
            return null; // not served here, or a cycle of required references
        }
        try {
            Made m = ep.creatable() ? create(ep, role) : null;
            if (m == null && role == Role.PRIMARY) {
                m = firstListed(ep);
            }
            if (m == null && role == Role.PRIMARY && ep.kind().equals("readonly")) {
                return null; // not remembered: another endpoint's action may make one later
            }
            made.put(memo, m);
            if (m != null && role == Role.PRIMARY && !m.found() && endpointKey.equals("core/data-sources")) {
                // its sync action (a local directory, see SampleValues) makes the data file that
                // synced-data objects (config templates, config contexts...) are then bound to
                Http.post(ep.path() + m.id() + "/sync/", Map.of());
            }
            if (m != null && role == Role.PRIMARY && !m.found()) {
                m = enrich(ep, m);
                made.put(memo, m);
            }
            return m;
        } finally {
            inProgress.remove(memo);
        }
    }

    /** POST with the contract's required fields; if the server wants more, retry with every field. */
    private Made create(Endpoint ep, Role role) {
        Map<String, Object> body = body(ep, new ArrayList<>(ep.required()), role);
        Http.Reply r = Http.post(ep.path(), body);
        if (r.status() == 201) {
            return made(ep, role, body, r);
        }
        Http.Reply apart = role == Role.OTHER ? withSpareTargets(ep, body, r) : null;
        if (apart != null && apart.status() == 201) {
            return made(apart);
        }
        // The server wants more than the contract's required set (e.g. a VM needs a site or a
        // cluster): send every field, dropping those a 400 names, a few times.
        Map<String, Object> full = body(ep, new ArrayList<>(ep.writeFields().keySet()), role);
        full.putAll(body);
        Http.Reply second = Http.post(ep.path(), full);
        for (int attempt = 0; attempt < 4 && second.status() == 400; attempt++) {
            Set<String> named = new HashSet<>();
            if (second.body() != null && second.body().isObject()) {
                second.body().fieldNames().forEachRemaining(named::add);
            }
            named.retainAll(pairsOf(ep, full.keySet()));
            named.removeAll(ep.required());
            if (named.isEmpty()) {
                break;
            }
            named.forEach(f -> removeWithPair(ep, full, f));
            second = Http.post(ep.path(), full);
        }
        Map<String, Object> sent = full;
        // A rule over several optional relations that names none of them (a component template
        // belongs to a device type or a module type, not both): leave out one of them at a time.
        for (String optional : List.copyOf(full.keySet())) {
            JsonNode spec = ep.writeFields().get(optional);
            if (second.status() != 400
                    || ep.required().contains(optional)
                    || spec == null
                    || !spec.path("type").asText().equals("fk")
                    || !spec.path("null").asBoolean()) {
                continue;
            }
            Map<String, Object> without = new LinkedHashMap<>(full);
            without.remove(optional);
            Http.Reply attempt = Http.post(ep.path(), without);
            if (attempt.status() != 400) {
                second = attempt;
                sent = without;
            }
        }
        if (second.status() == 201) {
            // informational: often a model-level rule NetBox has too (a VM needs a site or cluster)
            note(
                    ep.key(),
                    "POST with only the contract's required fields " + ep.required() + " refused: " + r.describe());
            return made(ep, role, sent, second);
        }
        finding(
                ep.key(),
                "cannot create (" + role + "): POST " + ep.path() + " " + body + " → " + r.describe()
                        + (second.status() == r.status() && second.text().equals(r.text())
                                ? ""
                                : "; with all fields → " + second.describe()));
        return null;
    }

    /**
     * OTHER refused for a relation it shares with PRIMARY (a module's bay holds one module):
     * the same body with those relations' SPARE objects.
     */
    private Http.Reply withSpareTargets(Endpoint ep, Map<String, Object> body, Http.Reply refused) {
        if (refused.status() != 400 || refused.body() == null || !refused.body().isObject()) {
            return null;
        }
        Map<String, Object> retry = new LinkedHashMap<>(body);
        boolean changed = false;
        for (var it = refused.body().fieldNames(); it.hasNext(); ) {
            String name = it.next();
            JsonNode spec = ep.writeFields().get(name);
            String target = spec == null ? null : spec.path("fk").asText(null);
            if (target != null && body.containsKey(name) && !target.equals(ep.key())) {
                Made spare = instance(target, Role.SPARE);
                if (spare != null) {
                    retry.put(name, spare.id());
                    changed = true;
                }
            }
        }
        return changed ? Http.post(ep.path(), retry) : null;
    }

    private Made made(Endpoint ep, Role role, Map<String, Object> body, Http.Reply r) {
        if (role == Role.PRIMARY) {
            primaryBodies.putIfAbsent(ep.key(), new LinkedHashMap<>(body));
        }
        return made(r);
    }

    private static Made made(Http.Reply r) {
        return new Made(r.body().path("id").asLong(), r.requestId(), null, false);
    }

    /** Readonly endpoints (object changes, object types...) and failed creations: an existing object. */
    private Made firstListed(Endpoint ep) {
        if (!ep.isModel() && !ep.kind().equals("readonly")) {
            return null;
        }
        Http.Reply r = Http.get(ep.path(), Map.of("limit", List.of("1")));
        JsonNode first = r.body() == null ? null : r.body().path("results").path(0);
        if (r.status() == 200 && first != null && first.has("id")) {
            return new Made(first.get("id").asLong(), null, null, true);
        }
        return null;
    }

    /**
     * Fills every optional writable field by PATCH. Fields named in a 400 are dropped and the
     * PATCH is retried; an error naming no field falls back to one PATCH per field.
     */
    private Made enrich(Endpoint ep, Made m) {
        String detail = ep.detailPath(m.id());
        if (detail == null || !ep.allows("patch")) {
            return m;
        }
        List<String> optional = new ArrayList<>(ep.writeFields().keySet());
        optional.removeAll(ep.required());
        optional.remove("custom_fields");
        Map<String, Object> body = body(ep, optional, Role.PRIMARY);
        ep.required().forEach(body::remove);
        Made dataFile = body.containsKey("data_source") && ep.fields().containsKey("data_file")
                ? instance("core/data-files", Role.PRIMARY)
                : null;
        if (dataFile != null) {
            // NetBox binds a synced-data object to a file with data_source + data_file; 4.4's
            // serializers list data_file read-only on most of these models, later releases take
            // it by id (netbox#21158, #23207), as the server here does
            body.put("data_file", dataFile.id());
        }
        for (int attempt = 0; attempt < 6 && !body.isEmpty(); attempt++) {
            Http.Reply r = Http.patch(detail, body);
            if (r.ok()) {
                return new Made(m.id(), m.createRequestId(), r.requestId(), false);
            }
            Set<String> named = new HashSet<>();
            if (r.status() == 400 && r.body() != null && r.body().isObject()) {
                r.body().fieldNames().forEachRemaining(named::add);
            }
            named.retainAll(pairsOf(ep, body.keySet()));
            if (named.isEmpty()) {
                if (r.status() >= 500) {
                    finding(ep.key(), "PATCH " + detail + " " + body + " → " + r.describe());
                }
                return patchOneByOne(ep, m, detail, body);
            }
            for (String f : named) {
                note(
                        ep.key(),
                        "optional field not set: " + f + " = " + body.get(f) + " → "
                                + r.body().get(f));
                removeWithPair(ep, body, f);
            }
        }
        return m; // nothing (more) could be set
    }

    private Made patchOneByOne(Endpoint ep, Made m, String detail, Map<String, Object> body) {
        String updateRequest = null;
        Set<String> done = new HashSet<>();
        for (String f : new ArrayList<>(body.keySet())) {
            if (done.contains(f)) {
                continue;
            }
            Map<String, Object> one = new LinkedHashMap<>();
            for (String g : pairOf(ep, f)) {
                if (body.containsKey(g)) {
                    one.put(g, body.get(g));
                    done.add(g);
                }
            }
            Http.Reply r = Http.patch(detail, one);
            if (r.ok()) {
                updateRequest = r.requestId();
            } else {
                note(ep.key(), "optional field not set: " + one + " → " + r.describe());
                if (r.status() >= 500) {
                    finding(ep.key(), "PATCH " + detail + " " + one + " → " + r.describe());
                }
            }
        }
        return new Made(m.id(), m.createRequestId(), updateRequest, false);
    }

    /** Body keys plus the generic-relation partners they belong with. */
    private Set<String> pairsOf(Endpoint ep, Set<String> keys) {
        Set<String> out = new HashSet<>(keys);
        for (List<String> pair : ep.genericFks().values()) {
            if (keys.contains(pair.get(0)) || keys.contains(pair.get(1))) {
                out.addAll(pair);
            }
        }
        return out;
    }

    private List<String> pairOf(Endpoint ep, String field) {
        for (List<String> pair : ep.genericFks().values()) {
            if (pair.contains(field)) {
                return pair;
            }
        }
        return List.of(field);
    }

    private void removeWithPair(Endpoint ep, Map<String, Object> body, String field) {
        pairOf(ep, field).forEach(body::remove);
    }

    /** A request body with values for {@code names} (fields without a value are left out). */
    private Map<String, Object> body(Endpoint ep, List<String> names, Role role) {
        Map<String, Object> body = new LinkedHashMap<>();
        Map<String, JsonNode> write = ep.writeFields();
        int block = samples.block();
        for (Map.Entry<String, List<String>> g : ep.genericFks().entrySet()) {
            List<String> pair = g.getValue();
            if (names.contains(pair.get(0)) || names.contains(pair.get(1)) || names.contains(g.getKey())) {
                Endpoint target = contract.endpointOfContentType(GenericTargets.contentType(ep.key(), g.getKey()));
                Made t = target == null
                        ? null
                        : instance(target.key(), target.key().equals(ep.key()) ? Role.SPARE : Role.PRIMARY);
                if (t != null) {
                    body.put(pair.get(0), GenericTargets.contentType(ep.key(), g.getKey()));
                    body.put(pair.get(1), t.id());
                } else {
                    note(
                            ep.key(),
                            "no " + GenericTargets.contentType(ep.key(), g.getKey()) + " to point " + g.getKey()
                                    + " at"
                                    + (target == null
                                            ? " (no endpoint serves it)"
                                            : " (" + target.key() + " made none"
                                                    + (inProgress.isEmpty() ? "" : "; in progress: " + inProgress)
                                                    + ")"));
                }
                names.removeAll(pair);
                names.remove(g.getKey());
            }
        }
        for (String name : names) {
            JsonNode spec = write.get(name);
            if (spec == null || name.equals("custom_fields")) {
                continue;
            }
            Object v = value(ep, name, spec, block, role == Role.OTHER);
            if (v != SampleValues.NONE) {
                body.put(name, v);
            }
        }
        return body;
    }

    private Object value(Endpoint ep, String name, JsonNode spec, int block, boolean second) {
        String type = spec.path("type").asText();
        String target = spec.path("fk").asText(GenericTargets.idTarget(ep.key(), name));
        Map<String, Object> shape = GenericTargets.shapedTarget(ep.key(), name);
        if (target != null && type.equals("fk") && shape != null) {
            Made t = shapedInstance(ep, name, target, shape, second);
            return t == null ? SampleValues.NONE : t.id();
        }
        if (target != null && (type.equals("fk") || type.equals("integer"))) {
            Made t = instance(target, target.equals(ep.key()) ? Role.SPARE : Role.PRIMARY);
            return t == null ? SampleValues.NONE : t.id();
        }
        if (type.equals("array:nested:GenericObjectRequest")) {
            // a list of {object_type, object_id} (a cable's ends): a fresh interface each, as no
            // object takes two cable ends
            Made device = instance("dcim/devices", Role.PRIMARY);
            Http.Reply r = device == null
                    ? null
                    : Http.post(
                            "/api/dcim/interfaces/",
                            Map.of(
                                    "device",
                                    device.id(),
                                    "name",
                                    "generic-object-" + block + "-" + name + (second ? "-2" : ""),
                                    "type",
                                    "1000base-t"));
            return r == null || r.status() != 201
                    ? SampleValues.NONE
                    : List.of(Map.of(
                            "object_type",
                            "dcim.interface",
                            "object_id",
                            r.body().path("id").asLong()));
        }
        if (target != null && type.startsWith("array:")) { // m2m and tags: one related object
            Made t = instance(target, target.equals(ep.key()) ? Role.SPARE : Role.PRIMARY);
            return t == null ? SampleValues.NONE : List.of(t.id());
        }
        JsonNode read = ep.fields().get(name);
        if (type.equals("string") && !spec.has("choices") && read != null && read.has("choices")) {
            // written as a plain string whose read form lists its choices (a data source's type)
            com.fasterxml.jackson.databind.node.ObjectNode choice = spec.deepCopy();
            choice.put("type", "choice").set("choices", read.get("choices"));
            return samples.value(name, choice, block, second);
        }
        return samples.value(name, spec, block, second);
    }

    /** A target made for one relation of one instance, with the values a server rule needs ({@link GenericTargets#shapedTarget}). */
    private Made shapedInstance(Endpoint ep, String field, String target, Map<String, Object> shape, boolean second) {
        String memo = ep.key() + "." + field + (second ? "#OTHER" : "#PRIMARY");
        if (made.containsKey(memo)) {
            return made.get(memo);
        }
        Endpoint targetEp = contract.endpoint(target);
        if (targetEp == null || !served.contains(target)) {
            return null;
        }
        Map<String, Object> body = body(targetEp, new ArrayList<>(targetEp.required()), Role.PRIMARY);
        body.putAll(shape);
        Http.Reply r = Http.post(targetEp.path(), body);
        Made m = r.status() == 201 ? made(r) : null;
        if (m == null) {
            finding(
                    ep.key(),
                    "cannot make the " + field + " target: POST " + targetEp.path() + " " + body + " → "
                            + r.describe());
        }
        made.put(memo, m);
        return m;
    }

    /**
     * The query a special endpoint needs to answer with an object (none for most):
     * {@code dcim/connected-device} names a device and interface cabled to another device's.
     */
    Map<String, List<String>> queryOf(String endpoint) {
        if (!endpoint.equals("dcim/connected-device")) {
            return Map.of();
        }
        Made device = instance("dcim/devices", Role.PRIMARY);
        Made other = instance("dcim/devices", Role.OTHER);
        if (device == null || other == null) {
            return Map.of();
        }
        Http.Reply a = Http.post(
                "/api/dcim/interfaces/", Map.of("device", device.id(), "name", "peer-a", "type", "1000base-t"));
        Http.Reply b = Http.post(
                "/api/dcim/interfaces/", Map.of("device", other.id(), "name", "peer-b", "type", "1000base-t"));
        if (a.status() != 201 || b.status() != 201) {
            return Map.of();
        }
        Http.post(
                "/api/dcim/cables/",
                Map.of(
                        "a_terminations",
                                List.of(Map.of(
                                        "object_type",
                                        "dcim.interface",
                                        "object_id",
                                        a.body().path("id").asLong())),
                        "b_terminations",
                                List.of(Map.of(
                                        "object_type",
                                        "dcim.interface",
                                        "object_id",
                                        b.body().path("id").asLong()))));
        String name = Http.get("/api/dcim/devices/" + device.id() + "/")
                .body()
                .path("name")
                .asText();
        return Map.of("peer_device", List.of(name), "peer_interface", List.of("peer-a"));
    }

    private void finding(String endpoint, String text) {
        findings.computeIfAbsent(endpoint, k -> new ArrayList<>()).add(text);
    }

    private void note(String endpoint, String text) {
        notes.computeIfAbsent(endpoint, k -> new ArrayList<>()).add(text);
    }
}
