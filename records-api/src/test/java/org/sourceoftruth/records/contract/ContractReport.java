package org.sourceoftruth.records.contract;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.sourceoftruth.records.contract.EndpointChecks.Tally;
import org.sourceoftruth.records.contract.FilterChecker.Outcome;
import org.sourceoftruth.records.contract.FilterChecker.Result;

/**
 * Tallies of the contract test and its two outputs: the one summary line every issue quotes,
 * {@code contract: endpoints X/138, fields P %, brief Q %, filters R %}, and the report file
 * (target/contract-report.txt) listing, per endpoint, every missing or wrongly typed field and
 * every failing filter, with per-application totals first.
 */
final class ContractReport {
    /** What one served endpoint scored. */
    record EndpointResult(
            String endpoint,
            String object,
            Tally fields,
            Tally brief,
            Tally required,
            Tally actions,
            List<Result> filters,
            List<String> findings,
            List<String> notes) {}

    private final int contractEndpoints;
    private final List<String> notServed = new ArrayList<>();
    private final List<EndpointResult> results = new ArrayList<>();
    /** endpoint → filters the service lists that NetBox's filterset does not have. */
    private final Map<String, List<String>> beyondContract = new TreeMap<>();

    ContractReport(int contractEndpoints) {
        this.contractEndpoints = contractEndpoints;
    }

    void notServed(String endpoint) {
        notServed.add(endpoint);
    }

    void add(EndpointResult r) {
        results.add(r);
    }

    void beyondContract(String endpoint, List<String> filters) {
        if (!filters.isEmpty()) {
            beyondContract.put(endpoint, List.copyOf(filters));
        }
    }

    /** How many filters the service lists beyond NetBox's filtersets, over all endpoints. */
    int filtersBeyondContract() {
        return beyondContract.values().stream().mapToInt(List::size).sum();
    }

    int served() {
        return results.size();
    }

    long withObject() {
        return results.stream().filter(r -> r.object() != null).count();
    }

    double fieldsPercent() {
        return percent(
                results.stream().mapToInt(r -> r.fields().passed()).sum(),
                results.stream().mapToInt(r -> r.fields().total()).sum());
    }

    double briefPercent() {
        return percent(
                results.stream().mapToInt(r -> r.brief().passed()).sum(),
                results.stream().mapToInt(r -> r.brief().total()).sum());
    }

    double filtersPercent() {
        return percent(
                results.stream()
                        .mapToLong(
                                r -> r.filters().stream().filter(Result::passed).count())
                        .sum(),
                results.stream().mapToInt(r -> r.filters().size()).sum());
    }

    private static double percent(long passed, long total) {
        return total == 0 ? 0 : Math.floor(1000.0 * passed / total) / 10.0;
    }

    String summaryLine() {
        return String.format(
                Locale.ROOT,
                "contract: endpoints %d/%d, fields %.1f %%, brief %.1f %%, filters %.1f %%",
                served(),
                contractEndpoints,
                fieldsPercent(),
                briefPercent(),
                filtersPercent());
    }

    /** The second line: what the summary leaves out. */
    String detailLine() {
        int reqPass = results.stream().mapToInt(r -> r.required().passed()).sum();
        int reqTotal = results.stream().mapToInt(r -> r.required().total()).sum();
        int actPass = results.stream().mapToInt(r -> r.actions().passed()).sum();
        int actTotal = results.stream().mapToInt(r -> r.actions().total()).sum();
        return String.format(
                Locale.ROOT,
                "contract detail: objects %d/%d served endpoints, required sets %d/%d,"
                        + " actions %d/%d; filters by check: %s; filters beyond NetBox's: %d"
                        + " (report: target/contract-report.txt)",
                withObject(),
                served(),
                reqPass,
                reqTotal,
                actPass,
                actTotal,
                outcomeCounts(results),
                filtersBeyondContract());
    }

    private static Map<Outcome, Integer> outcomeCounts(List<EndpointResult> rs) {
        Map<Outcome, Integer> counts = new EnumMap<>(Outcome.class);
        rs.forEach(r -> r.filters().forEach(f -> counts.merge(f.outcome(), 1, Integer::sum)));
        return counts;
    }

    void write(Path file) throws IOException {
        StringBuilder sb = new StringBuilder();
        sb.append(summaryLine()).append('\n').append(detailLine()).append("\n\n");
        sb.append("""
                How to read this: FULL = the filter includes the object for its own value and excludes it for
                another; EXCLUSION_ONLY / INCLUSION_ONLY = only one half was derivable (the object has no value
                there, or the related object is unknown); ACCEPTED = no value derivable, the filter was only
                checked to be accepted (200, or a 400 about the value, not "Unknown filter parameter");
                AT_DISPATCHER = a parameter of an endpoint forwarded to the webhook dispatcher, checked
                through a running one by webhook-dispatcher's BackgroundTasksAtRecordsApiTest.
                All but FAILED count as passed. FINDING = an API problem met while creating objects (a 5xx, or
                no object at all); note = what the harness could not do or a server rule beyond the contract's
                required set (optional fields refused, e.g. an IPv4 address for primary_ip6), not counted.

                """);
        appendPerApp(sb);
        sb.append("\n== not served (").append(notServed.size()).append(")\n");
        sb.append(String.join(", ", notServed)).append("\n");
        sb.append("\n== filters the service lists that NetBox's filterset lacks (")
                .append(filtersBeyondContract())
                .append(")\n");
        beyondContract.forEach((endpoint, filters) -> sb.append(endpoint)
                .append(": ")
                .append(String.join(", ", filters))
                .append('\n'));
        for (EndpointResult r : results) {
            appendEndpoint(sb, r);
        }
        Files.createDirectories(file.getParent());
        Files.writeString(file, sb.toString());
    }

    private void appendPerApp(StringBuilder sb) {
        Map<String, int[]> apps = new TreeMap<>();
        Map<String, Map<String, Integer>> failingLookups = new TreeMap<>();
        for (EndpointResult r : results) {
            String app = r.endpoint().substring(0, r.endpoint().indexOf('/'));
            int[] t = apps.computeIfAbsent(app, k -> new int[8]);
            t[0] += r.fields().passed();
            t[1] += r.fields().total();
            t[2] += r.brief().passed();
            t[3] += r.brief().total();
            t[4] += (int) r.filters().stream().filter(Result::passed).count();
            t[5] += r.filters().size();
            t[6]++;
            for (Result f : r.filters()) {
                if (!f.passed()) {
                    failingLookups.computeIfAbsent(app, k -> new TreeMap<>()).merge(category(f), 1, Integer::sum);
                }
            }
        }
        sb.append(
                "== per application (served endpoints: fields, brief, filters passed/total; failing filters by cause)\n");
        apps.forEach((app, t) -> {
            sb.append(String.format(
                    Locale.ROOT,
                    "%-15s %2d endpoints  fields %d/%d  brief %d/%d  filters %d/%d%n",
                    app,
                    t[6],
                    t[0],
                    t[1],
                    t[2],
                    t[3],
                    t[4],
                    t[5]));
            Map<String, Integer> cats = failingLookups.getOrDefault(app, Map.of());
            if (!cats.isEmpty()) {
                List<Map.Entry<String, Integer>> sorted = new ArrayList<>(cats.entrySet());
                sorted.sort((a, b) -> b.getValue() - a.getValue());
                sb.append("                failing: ")
                        .append(sorted.subList(0, Math.min(8, sorted.size())))
                        .append('\n');
            }
        });
    }

    /** A failing filter's cause, for the per-app totals. */
    private static String category(Result f) {
        String d = f.detail();
        String cause = d.contains("Unknown filter parameter")
                ? "unknown(400)"
                : d.startsWith("object still returned")
                        ? "ignored/not applied"
                        : d.startsWith("object not returned")
                                ? "no match"
                                : d.startsWith("5") ? "5xx" : d.startsWith("4") ? "4xx" : "other";
        return cause;
    }

    private static void appendEndpoint(StringBuilder sb, EndpointResult r) {
        sb.append("\n== ")
                .append(r.endpoint())
                .append("  ")
                .append(r.object() == null ? "NO OBJECT" : r.object())
                .append('\n');
        appendTally(sb, "fields", r.fields());
        appendTally(sb, "brief", r.brief());
        appendTally(sb, "required", r.required());
        appendTally(sb, "actions", r.actions());
        long passed = r.filters().stream().filter(Result::passed).count();
        Map<Outcome, Integer> counts = new EnumMap<>(Outcome.class);
        r.filters().forEach(f -> counts.merge(f.outcome(), 1, Integer::sum));
        sb.append("filters ")
                .append(passed)
                .append('/')
                .append(r.filters().size())
                .append(' ')
                .append(counts)
                .append('\n');
        Map<String, List<String>> failingByBase = new LinkedHashMap<>();
        for (Result f : r.filters()) {
            if (!f.passed()) {
                failingByBase
                        .computeIfAbsent(f.filter(), k -> new ArrayList<>())
                        .add(f.detail());
            }
        }
        failingByBase.forEach((name, ds) ->
                sb.append("  FAIL ").append(name).append(": ").append(ds.get(0)).append('\n'));
        for (Result f : r.filters()) {
            if (f.outcome() == Outcome.ACCEPTED) {
                sb.append("  accepted-only ")
                        .append(f.filter())
                        .append(": ")
                        .append(f.detail())
                        .append('\n');
            }
        }
        r.findings().forEach(x -> sb.append("  FINDING ").append(x).append('\n'));
        r.notes().forEach(x -> sb.append("  note ").append(x).append('\n'));
    }

    private static void appendTally(StringBuilder sb, String what, Tally t) {
        if (t.total() == 0 && t.remarks().isEmpty()) {
            return;
        }
        sb.append(what)
                .append(' ')
                .append(t.passed())
                .append('/')
                .append(t.total())
                .append('\n');
        t.failures().forEach(f -> sb.append("  ").append(f).append('\n'));
        t.remarks().forEach(f -> sb.append("  (").append(f).append(")\n"));
    }
}
