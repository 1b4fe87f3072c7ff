package org.sourceoftruth.records.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.model.Json;
import org.sourceoftruth.records.Api;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.engine.write.UniqueIndexes;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Kind;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.UniqueRule;

/**
 * Every declared uniqueness rule under concurrent writers: for each rule of every model in the
 * registry, and each pattern of NULLs it compares as equal (a top-level region and a child one,
 * a device with and without a tenant), {@value #PARALLEL} identical creates are released at once
 * over real HTTP. Exactly one is created and one row holds the key; every other answer is the
 * 400 the check before the write gives for a duplicate (the body of the same create sent once
 * more afterwards). Where a rule ignores case, the creates spell the name in different cases.
 *
 * <p>Bodies come from the contract's object factory: the body that created the endpoint's first
 * object, with a fresh key for the rule (a fresh string, or a fresh related object where the rule
 * has no string), and fresh values per request for the model's other rules so that only the rule
 * under test collides. Writes target/unique-race-report.txt. Runs in an application of its own
 * (as the contract test): the thousands of objects it makes stay out of other test classes'
 * answers, and the database is cleaned when the next application starts.
 */
@QuarkusTest
@TestProfile(UniqueRaceTest.OwnDatabase.class)
class UniqueRaceTest {
    static final int PARALLEL = 40;

    @TestHTTPResource("/")
    URL base;

    @Inject
    ModelRegistry registry;

    @Inject
    AgroalDataSource dataSource;

    /** The outcome of one race: what was created, stored and answered, and what went wrong. */
    record Outcome(String requirement, int created, long stored, List<String> problems) {}

    @Test
    void fortyParallelCreatesStoreOneRowForEveryDeclaredUniqueRule() throws Exception {
        Contract contract = Contract.load();
        Set<String> served = new LinkedHashSet<>();
        for (Contract.Endpoint ep : contract.endpoints()) {
            if (Http.get(ep.path(), Map.of("limit", List.of("1"))).status() != 404) {
                served.add(ep.key());
            }
        }
        ObjectFactory factory = new ObjectFactory(contract, served);
        List<Model> models = registry.all().stream()
                .filter(m -> !m.uniqueRules().isEmpty())
                .sorted(Comparator.comparing(Model::contentType))
                .toList();
        List<UniqueIndexes.Requirement> requirements = new ArrayList<>();
        try (Connection c = dataSource.getConnection()) {
            UniqueIndexes.Matching matching = UniqueIndexes.match(new Db(c), models);
            requirements.addAll(matching.enforced().keySet());
            requirements.addAll(matching.unenforced());
        }
        requirements.sort(Comparator.comparing(UniqueIndexes.Requirement::describe));
        long rules = models.stream().mapToLong(m -> m.uniqueRules().size()).sum();

        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
        ExecutorService pool = Executors.newFixedThreadPool(PARALLEL);
        List<Outcome> outcomes = new ArrayList<>();
        try {
            for (UniqueIndexes.Requirement req : requirements) {
                outcomes.add(race(contract, factory, client, pool, req));
            }
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }

        long duplicates =
                outcomes.stream().mapToLong(o -> Math.max(0, o.stored() - 1)).sum();
        List<Outcome> failed =
                outcomes.stream().filter(o -> !o.problems().isEmpty()).toList();
        StringBuilder report = new StringBuilder();
        for (Outcome o : outcomes) {
            report.append(o.problems().isEmpty() ? "ok    " : "FAIL  ")
                    .append(o.requirement())
                    .append(": created ")
                    .append(o.created())
                    .append(", rows with the key ")
                    .append(o.stored())
                    .append('\n');
            o.problems().forEach(p -> report.append("        ").append(p).append('\n'));
        }
        String summary = String.format(
                "unique race: %d rules of %d models, %d index patterns, %d parallel creates each;"
                        + " duplicates stored: %d; races failing: %d",
                rules, models.size(), outcomes.size(), PARALLEL, duplicates, failed.size());
        report.insert(0, summary + "\n\n");
        Files.writeString(Path.of("target", "unique-race-report.txt"), report);
        System.out.println(summary);

        assertTrue(rules > 100, "the registry declares uniqueness rules (" + rules + ")");
        assertEquals(0, duplicates, summary + "; see target/unique-race-report.txt");
        assertEquals(
                List.of(),
                failed.stream().map(o -> o.requirement() + ": " + o.problems()).toList(),
                summary);
    }

    /**
     * Forty devices named "DupDev", "dupdev", "DUPDEV"... in one site at
     * once. One is created; the others get the check's answer for a duplicate device name.
     */
    @Test
    void deviceNamesDifferingOnlyInCaseRaceToOneDevice() throws Exception {
        int site = Api.site("race");
        int[] typeAndRole = Api.deviceTypeAndRole();
        String name = "DupDev" + Api.uniq();
        HttpClient client = HttpClient.newHttpClient();
        ExecutorService pool = Executors.newFixedThreadPool(PARALLEL);
        List<HttpResponse<String>> answers;
        try {
            List<String> bodies = new ArrayList<>();
            for (int i = 0; i < PARALLEL; i++) {
                bodies.add(Json.MAPPER.writeValueAsString(Map.of(
                        "name",
                        caseVariant(name, i),
                        "site",
                        site,
                        "device_type",
                        typeAndRole[0],
                        "role",
                        typeAndRole[1])));
            }
            answers = send(client, pool, "/api/dcim/devices/", bodies);
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, answers.stream().filter(r -> r.statusCode() == 201).count(), statuses(answers));
        for (HttpResponse<String> r : answers) {
            if (r.statusCode() != 201) {
                assertEquals(400, r.statusCode(), r.body());
                assertEquals("{\"__all__\":[\"Device name must be unique per site.\"]}", r.body());
            }
        }
        Number count = Api.auth()
                .get("/api/dcim/devices/?site_id=" + site + "&name__ie=" + name)
                .then()
                .statusCode(200)
                .extract()
                .path("count");
        assertEquals(1, count.intValue());
    }

    /**
     * The race's answer is the check's, not the violated index's alone: forty identical sites
     * collide on two unique indexes (name and slug) of which PostgreSQL reports one; each refused
     * create is answered as the check answers a duplicate, naming both fields.
     */
    @Test
    void aRacedCreateIsAnsweredWithTheChecksBody() throws Exception {
        String name = "race-" + Api.uniq();
        String body = Json.MAPPER.writeValueAsString(Map.of("name", name, "slug", name));
        HttpClient client = HttpClient.newHttpClient();
        ExecutorService pool = Executors.newFixedThreadPool(PARALLEL);
        List<HttpResponse<String>> answers;
        try {
            answers = send(client, pool, "/api/dcim/sites/", java.util.Collections.nCopies(PARALLEL, body));
        } finally {
            pool.shutdownNow();
        }
        String check = Api.auth()
                .body(body)
                .post("/api/dcim/sites/")
                .then()
                .statusCode(400)
                .extract()
                .asString();
        assertEquals(
                "{\"name\":[\"site with this name already exists.\"],\"slug\":[\"site with this slug already exists.\"]}",
                check);
        assertEquals(1, answers.stream().filter(r -> r.statusCode() == 201).count(), statuses(answers));
        for (HttpResponse<String> r : answers) {
            if (r.statusCode() != 201) {
                assertEquals(400, r.statusCode(), r.body());
                assertEquals(readTree(check), readTree(r.body()));
            }
        }
    }

    /**
     * Rules no two valid requests can both satisfy, raced all the same (every create is refused
     * by validation, none stored): a device's or a virtual machine's primary and out-of-band IP
     * addresses must be assigned to one of its own interfaces, which an object being created has
     * none of, and an address is assigned to one interface only.
     */
    static final Set<String> UNREACHABLE = Set.of(
            "dcim.device.primary_ip4_id",
            "dcim.device.primary_ip6_id",
            "dcim.device.oob_ip_id",
            "virtualization.virtualmachine.primary_ip4_id",
            "virtualization.virtualmachine.primary_ip6_id");

    /**
     * How the bodies of a race are made when the first try is refused (each refusal tried with
     * the next): every relation of the key a new object; optional fields of the seed left out;
     * the seed's relations pointed at the factory's first objects (which agree with each other);
     * one relation of the seed a new object; last, the model's other rules left to collide too
     * where they cannot be told apart (a circuit's account belongs to its provider, so circuits
     * with the same account and ID have the same provider and ID).
     */
    record Strategy(
            boolean freshKeyRelations,
            boolean withoutOptional,
            boolean primaryTargets,
            String freshSeedField,
            boolean varyOtherRules) {}

    private static List<Strategy> strategies(Map<String, Object> seed) {
        List<Strategy> out = new ArrayList<>(List.of(
                new Strategy(false, false, false, null, true),
                new Strategy(true, false, false, null, true),
                new Strategy(true, true, false, null, true),
                new Strategy(true, true, true, null, true)));
        seed.keySet().forEach(f -> out.add(new Strategy(true, true, true, f, true)));
        out.add(new Strategy(false, false, false, null, false));
        out.add(new Strategy(true, true, true, null, false));
        return out;
    }

    /** One race: the bodies, the parallel creates, the answers and the rows holding the key. */
    private Outcome race(
            Contract contract,
            ObjectFactory factory,
            HttpClient client,
            ExecutorService pool,
            UniqueIndexes.Requirement req)
            throws Exception {
        Model model = req.model();
        String endpoint = model.app() + "/" + model.path();
        String what = req.describe();
        Contract.Endpoint ep = contract.endpoint(endpoint);
        if (ep == null || !ep.creatable()) {
            return new Outcome(what, 0, 0, List.of("no create endpoint " + endpoint + " in the contract"));
        }
        Map<String, Object> seed = factory.primaryBody(endpoint);
        if (seed == null) {
            return new Outcome(
                    what,
                    0,
                    0,
                    List.of("the factory made no object of " + endpoint + ": " + factory.findings(endpoint)));
        }
        boolean unreachable = req.rule().columns().size() == 1
                && UNREACHABLE.contains(
                        model.contentType() + "." + req.rule().columns().get(0));
        // a body the server takes: creates with fresh keys, before the race
        Bodies bodies = null;
        List<String> refusals = new ArrayList<>();
        for (Strategy strategy :
                unreachable ? List.of(new Strategy(false, false, false, null, true)) : strategies(seed)) {
            Bodies tried = new Bodies(contract, factory, ep, model, req, seed, strategy);
            String problem = tried.key();
            // two creates: a body whose first object keeps a second from being made (a module
            // whose type's components the first one already added to the device) will not do
            for (int probe = 0; problem == null && !unreachable && probe < 2; probe++) {
                Map<String, Object> body = tried.request(3 * PARALLEL + probe);
                Http.Reply reply = Http.post(ep.path(), body);
                problem = reply.status() == 201 ? null : "probe " + body + " → " + reply.describe();
                if (problem == null && probe == 0) {
                    problem = tried.key();
                }
            }
            if (problem == null) {
                bodies = unreachable ? tried : new Bodies(contract, factory, ep, model, req, seed, strategy);
                problem = bodies.key();
            }
            if (problem == null) {
                break;
            }
            bodies = null;
            refusals.add(strategy + ": " + problem);
        }
        if (bodies == null) {
            return new Outcome(what, 0, 0, refusals);
        }
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < PARALLEL + 4; i++) {
            texts.add(Json.MAPPER.writeValueAsString(bodies.request(i)));
        }
        List<HttpResponse<String>> answers = send(client, pool, ep.path(), texts.subList(0, PARALLEL));
        List<String> problems = new ArrayList<>();
        List<Long> createdIds = answers.stream()
                .filter(r -> r.statusCode() == 201)
                .map(r -> readTree(r.body()).path("id").asLong())
                .toList();
        if (createdIds.size() != (unreachable ? 0 : 1)) {
            problems.add(createdIds.size() + " of " + PARALLEL + " created: " + statuses(answers)
                    + firstRefusal(answers) + " body " + texts.get(0));
        }
        // the check's own answers: the same creates once more, now that the key is stored, in
        // each of the four cases of the name the raced requests spelled it in
        List<Http.Reply> again = new ArrayList<>();
        for (int k = 0; k < 4; k++) {
            again.add(Http.post(ep.path(), Json.MAPPER.readValue(texts.get(PARALLEL + k), Map.class)));
            if (again.get(k).status() != 400) {
                problems.add(
                        "the same create sent again answered " + again.get(k).describe());
            }
        }
        for (int i = 0; i < PARALLEL; i++) {
            HttpResponse<String> r = answers.get(i);
            Http.Reply expected = again.get(i % 4);
            if (r.statusCode() != 201
                    && (r.statusCode() != 400 || !readTree(r.body()).equals(expected.body()))) {
                problems.add("raced answer " + r.statusCode() + " " + r.body() + " is not the check's 400 "
                        + expected.text());
                break;
            }
        }
        long stored = createdIds.isEmpty() ? 0 : rowsWithTheKeyOf(req, createdIds.get(0));
        if (stored > 1) {
            problems.add(stored + " rows hold the key");
        }
        return new Outcome(
                what + (unreachable ? " (unreachable: every create refused)" : ""),
                createdIds.size(),
                stored,
                problems);
    }

    /** The rows of the requirement's table holding the same key as row {@code id} (itself included). */
    private long rowsWithTheKeyOf(UniqueIndexes.Requirement req, long id) throws Exception {
        UniqueRule rule = req.rule();
        StringBuilder sql = new StringBuilder("select count(*) from "
                + req.model().table() + " y, " + req.model().table() + " x where x.id = ?");
        for (String c : rule.columns()) {
            String col = Db.q(c);
            if (req.nullColumns().contains(c)) {
                sql.append(" and y.").append(col).append(" is null");
            } else if (rule.caseInsensitive().contains(c)) {
                sql.append(" and lower(y.")
                        .append(col)
                        .append(") = lower(x.")
                        .append(col)
                        .append(")");
            } else {
                sql.append(" and y.").append(col).append(" = x.").append(col);
            }
        }
        rule.onlyIfNull().forEach(c -> sql.append(" and y.").append(Db.q(c)).append(" is null"));
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(sql.toString())) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /**
     * The request bodies of one race: the seed with a fresh key for the rule (the same in every
     * request, but for the case of columns compared case-insensitively) and fresh values per
     * request for the model's other rules.
     */
    private final class Bodies {
        private final ObjectFactory factory;
        private final Contract.Endpoint ep;
        private final Model model;
        private final UniqueIndexes.Requirement req;
        private final UniqueRule rule;
        private final Strategy strategy;
        private final Map<String, Object> shared;

        Bodies(
                Contract contract,
                ObjectFactory factory,
                Contract.Endpoint ep,
                Model model,
                UniqueIndexes.Requirement req,
                Map<String, Object> seed,
                Strategy strategy) {
            this.factory = factory;
            this.ep = ep;
            this.model = model;
            this.req = req;
            this.rule = req.rule();
            this.strategy = strategy;
            this.shared = new LinkedHashMap<>(seed);
            Set<String> ruleFields = new LinkedHashSet<>();
            rule.columns().forEach(c -> ruleFields.add(apiField(c)));
            for (String field : List.copyOf(seed.keySet())) {
                if (ruleFields.contains(field)) {
                    continue;
                }
                String column = columnOf(field);
                if (strategy.withoutOptional() && !ep.required().contains(field)) {
                    shared.remove(field);
                } else if (column != null && relation(column) && strategy.primaryTargets()) {
                    Object target = primaryTarget(column);
                    if (target != null) {
                        shared.put(field, target);
                    }
                }
            }
        }

        /** Sets the key the requests share; a problem when no fresh key can be made. */
        String key() {
            List<String> nullColumns = req.nullColumns();
            boolean fresh = false;
            for (String c : rule.columns()) {
                String field = apiField(c);
                if (field == null) {
                    return "no writable field for column " + c;
                }
                if (nullColumns.contains(c)) {
                    shared.put(field, null);
                } else if (textual(c)) {
                    Object v = factory.sample(ep.key(), field);
                    if (v == SampleValues.NONE) {
                        return "no sample value for " + field;
                    }
                    shared.put(field, v);
                    fresh = true;
                }
            }
            rule.onlyIfNull().forEach(c -> shared.put(apiField(c), null));
            for (String c : rule.columns()) {
                if (!nullColumns.contains(c) && genericTypeOf(c) != null && shared.get(apiField(c)) == null) {
                    shared.put(apiField(c), GenericTargets.contentType(ep.key(), genericTypeOf(c).name));
                }
            }
            // no string in the key: a fresh related object makes it new (a bookmark of a new site)
            for (String c : rule.columns()) {
                if ((!fresh || strategy.freshKeyRelations()) && !nullColumns.contains(c) && relation(c)) {
                    Object target = freshTarget(c, shared);
                    if (target == null) {
                        return "no fresh target for " + c;
                    }
                    shared.put(apiField(c), target);
                    shared.putAll(bodyShape(c));
                    fresh = true;
                }
            }
            for (String c : rule.columns()) {
                String field = apiField(c);
                Field f = fieldOf(c);
                if (nullColumns.contains(c) || (f != null && f.kind != Kind.INTEGER && shared.get(field) != null)) {
                    continue;
                }
                if (!fresh) {
                    Object v = factory.sample(ep.key(), field);
                    if (v == SampleValues.NONE) {
                        return "no sample value for " + field;
                    }
                    shared.put(field, v);
                    fresh = true;
                } else if (strategy.freshKeyRelations()
                        && f != null
                        && f.kind == Kind.INTEGER
                        && f.minValue() != null) {
                    shared.put(field, f.minValue().longValue()); // within the fresh related object's range
                } else if (shared.get(field) == null) {
                    Object v = existing(c);
                    if (v == null) {
                        return "no value for " + field;
                    }
                    shared.put(field, v);
                }
            }
            String seedField = strategy.freshSeedField();
            String seedColumn = seedField == null ? null : columnOf(seedField);
            if (seedColumn != null && shared.containsKey(seedField) && relation(seedColumn)) {
                Object target = freshTarget(seedColumn, shared);
                if (target == null) {
                    return "no fresh target for " + seedField;
                }
                shared.put(seedField, target);
            }
            return fresh ? null : "no fresh key";
        }

        /** Request {@code i}: the shared key, its case varied, and fresh values for the other rules. */
        Map<String, Object> request(int i) {
            Map<String, Object> body = new LinkedHashMap<>(shared);
            for (String c : rule.caseInsensitive()) {
                String field = apiField(c);
                if (body.get(field) instanceof String s) {
                    body.put(field, caseVariant(s, i));
                }
            }
            for (UniqueRule other : strategy.varyOtherRules() ? model.uniqueRules() : List.<UniqueRule>of()) {
                if (other.equals(rule) || rule.columns().containsAll(other.columns())) {
                    continue;
                }
                // NULLs compare equal: the other rule collides unless it skips the body
                if (other.skipIfNull().stream().anyMatch(c -> body.get(apiField(c)) == null)
                        || other.onlyIfNull().stream().anyMatch(c -> body.get(apiField(c)) != null)) {
                    continue;
                }
                String vary = other.columns().stream()
                        .filter(c -> !rule.columns().contains(c))
                        .sorted(Comparator.comparing(c -> textual(c) ? 0 : relation(c) ? 1 : 2))
                        .findFirst()
                        .orElseThrow();
                String field = apiField(vary);
                Object v = textual(vary)
                        ? factory.sample(ep.key(), field)
                        : relation(vary) ? freshTarget(vary, body) : factory.sample(ep.key(), field);
                if (v != null && v != SampleValues.NONE) {
                    body.put(field, v);
                }
            }
            return body;
        }

        /** The API field that writes the column: a field of that column, or a generic relation's part. */
        private String apiField(String column) {
            for (Field f : model.fields()) {
                if (f.kind == Kind.GENERIC_FK
                        && (column.equals(f.genericTypeColumn()) || column.equals(f.genericIdColumn()))) {
                    return column;
                }
                if (f.isColumn() && column.equals(f.column())) {
                    return f.name;
                }
            }
            return null;
        }

        private String columnOf(String apiField) {
            for (Field f : model.fields()) {
                if (f.kind == Kind.GENERIC_FK
                        && (apiField.equals(f.genericTypeColumn()) || apiField.equals(f.genericIdColumn()))) {
                    return apiField;
                }
                if (f.isColumn() && f.name.equals(apiField)) {
                    return f.column();
                }
            }
            return null;
        }

        private Field fieldOf(String column) {
            for (Field f : model.fields()) {
                if (f.isColumn() && f.kind != Kind.GENERIC_FK && column.equals(f.column())) {
                    return f;
                }
            }
            return null;
        }

        private boolean textual(String column) {
            Field f = fieldOf(column);
            return f != null && (f.kind == Kind.STRING || f.kind == Kind.SLUG);
        }

        /** A foreign key, or the id of a generic relation. */
        private boolean relation(String column) {
            Field f = fieldOf(column);
            return (f != null && f.kind == Kind.FK) || genericOf(column) != null;
        }

        private Field genericOf(String idColumn) {
            for (Field f : model.fields()) {
                if (f.kind == Kind.GENERIC_FK && idColumn.equals(f.genericIdColumn())) {
                    return f;
                }
            }
            return null;
        }

        private Field genericTypeOf(String typeColumn) {
            for (Field f : model.fields()) {
                if (f.kind == Kind.GENERIC_FK && typeColumn.equals(f.genericTypeColumn())) {
                    return f;
                }
            }
            return null;
        }

        /** A new object for a relation column (of the type a generic relation's body names). */
        private Object freshTarget(String column, Map<String, Object> body) {
            String target = targetEndpoint(column, body);
            ObjectFactory.Made made =
                    target == null ? null : factory.fresh(target, targetShape(apiField(column), body));
            return made == null ? null : made.id();
        }

        private Object primaryTarget(String column) {
            String target = targetEndpoint(column, shared);
            ObjectFactory.Made made = target == null ? null : factory.primary(target);
            return made == null ? null : made.id();
        }

        /** A value for a column the seed leaves empty: a related object, or a sample value. */
        private Object existing(String column) {
            if (relation(column)) {
                return primaryTarget(column);
            }
            Object v = factory.sample(ep.key(), apiField(column));
            return v == SampleValues.NONE ? null : v;
        }

        private String targetEndpoint(String column, Map<String, Object> body) {
            Field generic = genericOf(column);
            String contentType = generic != null
                    ? String.valueOf(body.get(generic.genericTypeColumn()))
                    : fieldOf(column).target();
            return registry.byContentType(contentType)
                    .map(m -> m.app() + "/" + m.path())
                    .orElse(null);
        }

        /**
         * Values a new related object needs for a server rule the contract cannot tell: a wireless
         * link's ends are wireless interfaces, a Q-in-Q service VLAN has that role, a virtual
         * device context's primary IP is on an interface of its device, a circuit's account is
         * its provider's, a front port template's rear port is on its device or module type.
         */
        private Map<String, Object> targetShape(String field, Map<String, Object> body) {
            Map<String, Object> shape = GenericTargets.shapedTarget(ep.key(), field);
            if (shape != null) {
                return shape;
            }
            return switch (ep.key() + "." + field) {
                case "circuits/circuits.provider_account" -> sameAs(body, "provider");
                case "dcim/front-port-templates.rear_port" ->
                    body.get("device_type") != null ? sameAs(body, "device_type") : sameAs(body, "module_type");
                case "ipam/vlans.qinq_svlan" -> Map.of("qinq_role", "svlan");
                case "dcim/virtual-device-contexts.primary_ip4", "dcim/virtual-device-contexts.primary_ip6" -> {
                    ObjectFactory.Made iface = factory.primary("dcim/interfaces");
                    Map<String, Object> ip = new LinkedHashMap<>();
                    ip.put("assigned_object_type", "dcim.interface");
                    ip.put("assigned_object_id", iface == null ? null : iface.id());
                    if (field.endsWith("6")) {
                        ip.put("address", "2001:db8:" + Integer.toHexString(V6_BLOCKS.incrementAndGet()) + "::1/64");
                    }
                    yield ip;
                }
                default -> Map.of();
            };
        }

        /** The body's value of a field, for a related object that must share it (an account of the circuit's provider). */
        private static Map<String, Object> sameAs(Map<String, Object> body, String field) {
            return body.get(field) == null ? Map.of() : Map.of(field, body.get(field));
        }

        /** Values the body itself needs with a relation of its key (a Q-in-Q customer VLAN's role). */
        private Map<String, Object> bodyShape(String column) {
            return switch (ep.key() + "." + apiField(column)) {
                case "ipam/vlans.qinq_svlan" -> Map.of("qinq_role", "cvlan");
                default -> Map.of();
            };
        }
    }

    private static final java.util.concurrent.atomic.AtomicInteger V6_BLOCKS =
            new java.util.concurrent.atomic.AtomicInteger(
                    java.util.concurrent.ThreadLocalRandom.current().nextInt(0x1000, 0x8000));

    /** The value in a case of its own per request: as it is, lower case, upper case, then letters flipped. */
    static String caseVariant(String value, int i) {
        return switch (i % 4) {
            case 0 -> value;
            case 1 -> value.toLowerCase(Locale.ROOT);
            case 2 -> value.toUpperCase(Locale.ROOT);
            default -> {
                StringBuilder b = new StringBuilder();
                for (int k = 0; k < value.length(); k++) {
                    char ch = value.charAt(k);
                    b.append(k % 2 == 0 ? Character.toUpperCase(ch) : Character.toLowerCase(ch));
                }
                yield b.toString();
            }
        };
    }

    /** Sends one POST per body from as many threads, released together. */
    private List<HttpResponse<String>> send(HttpClient client, ExecutorService pool, String path, List<String> bodies)
            throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<HttpResponse<String>>> futures = new ArrayList<>();
        for (String body : bodies) {
            HttpRequest req = HttpRequest.newBuilder(URI.create(base.toString().replaceAll("/$", "") + path))
                    .timeout(Duration.ofSeconds(60))
                    .header("Authorization", "Token " + Api.TOKEN)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body))
                    .build();
            futures.add(pool.submit(() -> {
                start.await();
                return client.send(req, HttpResponse.BodyHandlers.ofString());
            }));
        }
        start.countDown();
        List<HttpResponse<String>> out = new ArrayList<>();
        for (Future<HttpResponse<String>> f : futures) {
            out.add(f.get(120, TimeUnit.SECONDS));
        }
        return out;
    }

    private static String statuses(List<HttpResponse<String>> answers) {
        Map<Integer, Integer> counts = new TreeMap<>();
        answers.forEach(r -> counts.merge(r.statusCode(), 1, Integer::sum));
        return counts.toString();
    }

    private static String firstRefusal(List<HttpResponse<String>> answers) {
        return answers.stream()
                .filter(r -> r.statusCode() != 201)
                .findFirst()
                .map(r -> "; first refusal " + r.statusCode() + " " + r.body())
                .orElse("");
    }

    private static JsonNode readTree(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (Exception e) {
            return Json.MAPPER.getNodeFactory().textNode(text);
        }
    }

    public static class OwnDatabase extends org.sourceoftruth.records.changelog.UniqueTopicProfile {}
}
