package org.sourceoftruth.records.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.Api;
import org.sourceoftruth.records.changelog.UniqueTopicProfile;
import org.sourceoftruth.records.contract.Contract.Endpoint;
import org.sourceoftruth.records.contract.ContractReport.EndpointResult;
import org.sourceoftruth.records.contract.EndpointChecks.Tally;
import org.sourceoftruth.records.contract.FilterChecker.Outcome;
import org.sourceoftruth.records.contract.FilterChecker.Result;
import org.sourceoftruth.records.engine.query.FilterCatalog;
import org.sourceoftruth.records.engine.query.FilterCompiler;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;

/**
 * The yardstick: NetBox 4.6.8's REST API (contract/netbox-4.6-contract.json) checked endpoint
 * by endpoint, field by field, filter by filter. For every endpoint served here it creates an
 * object from the contract alone and checks the full and brief representations, the required
 * set of an empty POST, every filter parameter (behaviour, not just a 200) and the action paths.
 * It prints {@code contract: endpoints X/138, fields P %, brief Q %, filters R %} and writes
 * target/contract-report.txt with every failure, and with every filter the service lists for an
 * endpoint that NetBox's filterset does not have (the filters a client of NetBox never sends).
 *
 * <p>The floors below are a ratchet: they hold today and fail the build if parity regresses.
 * Issues that raise parity raise them.
 *
 * <p>It runs in an application of its own ({@link OwnDatabase}): the objects it makes (an active
 * global config context, custom fields, permissions...) would otherwise show in the answers of
 * test classes that run after it; the database is cleaned when the next application starts.
 */
@QuarkusTest
@TestProfile(ContractTest.OwnDatabase.class)
class ContractTest {
    // Ratchet: what holds today. Raise the floors with every change that raises parity; never
    // lower them to make a change pass.
    static final int ENDPOINTS_FLOOR = 138;
    static final double FIELDS_FLOOR = 100.0;
    static final double BRIEF_FLOOR = 100.0;
    static final double FILTERS_FLOOR = 100.0;

    /** The endpoints records-api answers by forwarding to the webhook dispatcher (core.BackgroundTaskProxy). */
    private static final Set<String> FORWARDED_TO_DISPATCHER =
            Set.of("core/background-queues", "core/background-workers", "core/background-tasks");
    /** The harness works: it creates (or finds) an object for at least this share of served endpoints. */
    static final double OBJECTS_SHARE = 0.9;

    @Inject
    FilterCompiler filterCompiler;

    @Inject
    io.agroal.api.AgroalDataSource dataSource;

    @Inject
    FilterCatalog filterCatalog;

    @Inject
    ModelRegistry registry;

    /**
     * The contract is checked under STRICT_FILTERING: a filter whose value cannot be derived is
     * only checked to be accepted, and under the lenient default an unknown filter is accepted
     * too (ignored, 200) — it would pass unchecked.
     */
    @BeforeEach
    void strictFiltering() {
        filterCompiler.strictFiltering(true);
    }

    @AfterEach
    void configuredFiltering() {
        filterCompiler.strictFiltering(null);
    }

    @Test
    void netbox46Contract() throws Exception {
        Contract contract = Contract.load();
        ContractReport report = new ContractReport(contract.endpointCount());
        Set<String> served = new LinkedHashSet<>();
        for (Endpoint ep : contract.endpoints()) {
            if (Http.get(ep.path(), Map.of("limit", List.of("1"))).status() != 404) {
                served.add(ep.key());
            } else {
                report.notServed(ep.key());
            }
        }

        seedRowsNoApiCreates();
        long t0 = System.nanoTime();
        ObjectFactory factory = new ObjectFactory(contract, served);
        // All objects first, so no later creation changes an object after it was checked.
        served.forEach(factory::primary);
        served.forEach(factory::other);
        long t1 = System.nanoTime();

        ShapeChecker shapes = new ShapeChecker(contract);
        EndpointChecks checks = new EndpointChecks(shapes);
        SubjectResolver subjects = new SubjectResolver(contract, factory);
        FilterChecker filters = new FilterChecker(subjects);
        // read-only endpoints last: their objects may come from other endpoints' actions (a data
        // source's sync/ makes data files and a job), which run while those endpoints are checked
        List<String> order = new ArrayList<>(served);
        order.sort(java.util.Comparator.comparing(
                key -> contract.endpoint(key).kind().equals("readonly")));
        for (String key : order) {
            report.add(check(contract.endpoint(key), factory, checks, filters));
            report.beyondContract(key, filtersBeyondContract(contract.endpoint(key)));
        }

        Path file = Path.of("target", "contract-report.txt");
        report.write(file);
        System.out.println(report.summaryLine());
        System.out.println(report.detailLine());
        System.out.printf(
                "contract cost: %d requests (%d ms in them); objects %d s, checks %d s%n",
                Http.REQUESTS.get(),
                Http.MILLIS.get(),
                (t1 - t0) / 1_000_000_000,
                (System.nanoTime() - t1) / 1_000_000_000);

        assertTrue(report.served() >= ENDPOINTS_FLOOR, "served endpoints regressed: " + report.summaryLine());
        assertTrue(
                report.withObject() >= OBJECTS_SHARE * report.served(),
                "the harness made objects for only " + report.withObject() + " of " + report.served()
                        + " served endpoints; see " + file.toAbsolutePath());
        assertTrue(report.fieldsPercent() >= FIELDS_FLOOR, "field parity regressed: " + report.summaryLine());
        assertTrue(report.briefPercent() >= BRIEF_FLOOR, "brief parity regressed: " + report.summaryLine());
        assertTrue(report.filtersPercent() >= FILTERS_FLOOR, "filter parity regressed: " + report.summaryLine());
    }

    /**
     * The filter parameters the service lists for the endpoint's model (its OpenAPI document's
     * list parameters) that NetBox's filterset lacks; custom-field filters are data, not listed.
     */
    private List<String> filtersBeyondContract(Endpoint ep) {
        String key = ep.key();
        Model model = registry.byPath(key.substring(0, key.indexOf('/')), key.substring(key.indexOf('/') + 1))
                .orElse(null);
        if (model == null) {
            return List.of();
        }
        Set<String> netbox = ep.filters().keySet();
        return filterCatalog.parameters(model).stream()
                .map(FilterCatalog.Parameter::name)
                .filter(name -> !netbox.contains(name))
                .toList();
    }

    /**
     * Rows that exist in NetBox without any API creating them, written to the database as they
     * would be there, so that their read-only endpoints have an object to compare: a custom
     * script (NetBox finds scripts in uploaded Python modules; no API makes one, and no script
     * runner exists here) and the job a past run of it by the superuser left (its {@code result}), as in a
     * database carried over from NetBox. The server renders them like any other row.
     */
    private void seedRowsNoApiCreates() throws java.sql.SQLException {
        try (java.sql.Connection c = dataSource.getConnection();
                java.sql.Statement st = c.createStatement()) {
            st.execute("insert into extras_scriptmodule (file_path) values ('contract_checks.py')"
                    + " on conflict do nothing");
            st.execute("insert into extras_script (module_id, name, description, vars)"
                    + " select id, 'ContractCheck', 'Seeded by the contract test', '{\"site\": \"ObjectVar\"}'"
                    + " from extras_scriptmodule where file_path = 'contract_checks.py' on conflict do nothing");
            st.execute(
                    "insert into core_job (object_type, object_id, name, status, created, started, completed, user_id,"
                            + " job_id) select 'extras.script', s.id, s.name, 'completed', now() - interval '1 day',"
                            + " now() - interval '1 day', now() - interval '1 day',"
                            + " (select min(id) from users_user where is_superuser), gen_random_uuid()"
                            + " from extras_script s where s.name = 'ContractCheck' and not exists"
                            + " (select 1 from core_job j where j.object_type = 'extras.script' and j.object_id = s.id)");
        }
    }

    /**
     * The harness can fail: a filter the server ignores ({@code exclude} is a reserved parameter
     * the engine skips) and a value the object does not have must both be reported as failures.
     */
    @Test
    void filterCheckerReportsIgnoredAndNonMatchingFilters() throws Exception {
        Contract contract = Contract.load();
        Endpoint sites = contract.endpoint("dcim/sites");
        ObjectNode spec = sites.spec().deepCopy();
        spec.putObject("filters").put("exclude", "string[]").put("name", "string[]");
        ((ObjectNode) spec.get("fields")).putObject("exclude").put("type", "string");
        Endpoint fake = new Endpoint(sites.key(), spec);
        long id = Api.site("canary");
        ObjectNode obj = (ObjectNode) Http.get(sites.detailPath(id)).body();
        obj.put("exclude", "anything").put("name", "not-its-name");

        ObjectFactory factory = new ObjectFactory(contract, Set.of(sites.key()));
        List<Result> results = new FilterChecker(new SubjectResolver(contract, factory))
                .check(fake, new ObjectFactory.Made(id, null, null, true), obj);

        Map<String, Result> byName = new java.util.HashMap<>();
        results.forEach(r -> byName.put(r.filter(), r));
        assertEquals(
                Outcome.FAILED,
                byName.get("exclude").outcome(),
                byName.get("exclude").toString());
        assertTrue(
                byName.get("exclude").detail().startsWith("object still returned"),
                byName.get("exclude").toString());
        assertEquals(
                Outcome.FAILED, byName.get("name").outcome(), byName.get("name").toString());
        assertTrue(
                byName.get("name").detail().startsWith("object not returned"),
                byName.get("name").toString());
    }

    private static EndpointResult check(
            Endpoint ep, ObjectFactory factory, EndpointChecks checks, FilterChecker filters) {
        ObjectFactory.Made made = factory.primary(ep.key());
        JsonNode obj = null;
        // a special endpoint's query (connected-device's cabled pair), made once
        Map<String, List<String>> query = made == null && !ep.paginated() ? factory.queryOf(ep.key()) : Map.of();
        if (made != null && ep.detailPath(made.id()) != null) {
            Http.Reply r = Http.get(ep.detailPath(made.id()));
            obj = r.status() == 200 ? r.body() : null;
        } else if (!ep.paginated()) { // special endpoints (users/config, dashboard): the answer is the object
            Http.Reply r = Http.get(ep.path(), query);
            obj = r.status() == 200 && r.body() != null && r.body().isObject() ? r.body() : null;
        }
        Tally fields = checks.fields(ep.fields(), obj, ep);
        // a special endpoint answering with an object for its query (connected-device): its brief
        // form is that answer with brief=1, and the query's parameters are the filters that chose it
        Tally brief = ep.briefFields().isEmpty()
                ? new Tally(0, List.of(), List.of())
                : checks.fields(
                        ep.briefFields(),
                        made != null
                                ? checks.briefOf(ep, made.id())
                                : query.isEmpty() || obj == null ? null : briefAnswer(ep, query));
        Tally required = checks.required(ep);
        boolean answered = obj != null;
        // filters before actions: an action may change the object read above (a data source's sync/)
        List<Result> filterResults = made != null && obj != null
                ? filters.check(ep, made, obj)
                : ep.filters().keySet().stream()
                        .map(f -> answered && query.containsKey(f)
                                ? new Result(f, Outcome.INCLUSION_ONLY, "the query that answered with the object")
                                : FilterCompiler.RESERVED.contains(f)
                                        ? representationAccepted(ep, f, query)
                                        : new Result(f, Outcome.FAILED, "no object to filter"))
                        .toList();
        Tally actions = made != null
                ? checks.actions(ep, made.id())
                : noObject(ep.actions().size());
        String object = made == null
                ? (obj == null ? null : "answer of GET " + ep.path())
                : (made.found() ? "existing id " : "created id ") + made.id();
        return new EndpointResult(
                ep.key(),
                object,
                fields,
                brief,
                required,
                actions,
                filterResults,
                factory.findings(ep.key()),
                factory.notes(ep.key()));
    }

    /**
     * A representation or paging parameter (brief, fields, omit, ...) of an endpoint without an
     * object to compare: it is only checked to be accepted, a 200 with it.
     */
    private static Result representationAccepted(Endpoint ep, String parameter, Map<String, List<String>> query) {
        Map<String, List<String>> withIt = new java.util.HashMap<>(query);
        withIt.put(
                parameter,
                List.of(
                        parameter.equals("brief")
                                ? "true"
                                : parameter.equals("fields") || parameter.equals("omit") ? "id" : "1"));
        Http.Reply r = Http.get(ep.path(), withIt);
        if (r.status() == 503 && FORWARDED_TO_DISPATCHER.contains(ep.key())) {
            return new Result(
                    parameter, Outcome.AT_DISPATCHER, "forwarded to the webhook dispatcher, which is not running here");
        }
        return r.status() == 200
                ? new Result(parameter, Outcome.ACCEPTED, "no object; " + parameter + " → 200")
                : new Result(
                        parameter, Outcome.FAILED, "no object; " + parameter + " → " + r.status() + " " + r.text());
    }

    private static JsonNode briefAnswer(Endpoint ep, Map<String, List<String>> query) {
        Map<String, List<String>> withBrief = new java.util.HashMap<>(query);
        withBrief.put("brief", List.of("1"));
        Http.Reply r = Http.get(ep.path(), withBrief);
        return r.status() == 200 && r.body() != null && r.body().isObject() ? r.body() : null;
    }

    private static Tally noObject(int items) {
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < items; i++) {
            failures.add("no object");
        }
        return new Tally(items, failures, List.of());
    }

    /** A profile of its own: a fresh application (and clean database) before and after this class. */
    public static class OwnDatabase extends UniqueTopicProfile {}
}
