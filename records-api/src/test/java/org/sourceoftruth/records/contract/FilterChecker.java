package org.sourceoftruth.records.contract;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.sourceoftruth.records.contract.Contract.Endpoint;
import org.sourceoftruth.records.contract.Subject.Kind;

/**
 * Checks that every contract filter of an endpoint is accepted AND applied. Each filter is split
 * into base and lookup ({@code name__nic} → {@code name}, {@code nic}); {@link SubjectResolver}
 * says what the base is on the object under test; the lookup turns the object's value into a
 * value that must match (a substring for {@code ic}, the value minus one for {@code gt}, ...) and
 * one that must not. Requests are anchored on the object ({@code id=<its id>}, ANDed with the
 * filter), so "matches" means the object is in the answer. Negated lookups swap the two halves.
 * A non-matching value that still returns the object means the filter is ignored.
 */
final class FilterChecker {
    enum Outcome {
        FULL,
        EXCLUSION_ONLY,
        INCLUSION_ONLY,
        ACCEPTED,
        /**
         * An endpoint records-api forwards to the webhook dispatcher, which this test does not
         * run: checked through a running one by webhook-dispatcher's BackgroundTasksAtRecordsApiTest.
         */
        AT_DISPATCHER,
        FAILED
    }

    record Result(String filter, Outcome outcome, String detail) {
        boolean passed() {
            return outcome != Outcome.FAILED;
        }
    }

    /** NetBox's lookup suffixes (contract "lookups"). */
    private static final Set<String> LOOKUPS = Set.of(
            "n", "empty", "gt", "gte", "lt", "lte", "ic", "nic", "ie", "nie", "isw", "nisw", "iew", "niew", "regex",
            "iregex", "after", "before");
    /** Fields the free-text search {@code q} is expected to look at, most specific first. */
    private static final List<String> SEARCHED =
            List.of("name", "slug", "model", "cid", "address", "prefix", "ssid", "username", "display", "description");

    private final SubjectResolver subjects;

    FilterChecker(SubjectResolver subjects) {
        this.subjects = subjects;
    }

    /** A filter whose behaviour can be checked: values that must include the object, values that must not. */
    private record Plan(
            String filter,
            String code,
            List<String> including,
            List<String> excluding,
            boolean negated,
            Subject subject) {}

    /** A filter's check: finished already ({@code done}), or a {@link Plan} still to run. */
    private record Step(Result done, Plan plan) {}

    /** The engine's answer to a filter it does not know (STRICT_FILTERING). */
    private static final String UNKNOWN = "Unknown filter parameter";

    /** Inclusion halves are sent together (ANDed) in chunks of this many parameters. */
    private static final int CHUNK = 20;

    List<Result> check(Endpoint ep, ObjectFactory.Made made, JsonNode obj) {
        List<Step> steps = new ArrayList<>();
        for (Map.Entry<String, String> f : ep.filters().entrySet()) {
            try {
                steps.add(checkOne(ep, made, obj, f.getKey(), f.getValue()));
            } catch (RuntimeException e) {
                steps.add(new Step(new Result(f.getKey(), Outcome.FAILED, "harness error: " + e), null));
            }
        }
        Map<String, String> unknown = new HashMap<>();
        Set<String> included = includedTogether(
                ep, made, steps.stream().map(Step::plan).filter(p -> p != null).toList(), unknown);
        List<Result> out = new ArrayList<>();
        for (Step step : steps) {
            if (step.done() != null) {
                out.add(step.done());
            } else if (unknown.containsKey(step.plan().filter())) {
                out.add(new Result(
                        step.plan().filter(),
                        Outcome.FAILED,
                        unknown.get(step.plan().filter())));
            } else {
                out.add(run(ep, made, step.plan(), included.contains(step.plan().filter())));
            }
        }
        return out;
    }

    /**
     * The inclusion halves, ANDed in chunks (one request instead of twenty when all is well).
     * Returns the filters whose first including value is known to include the object; a chunk
     * that fails (400 naming parameters, or the object missing) leaves its filters to be asked
     * one by one, after retrying once without the parameters a 400 names.
     */
    private Set<String> includedTogether(
            Endpoint ep, ObjectFactory.Made made, List<Plan> plans, Map<String, String> unknown) {
        Set<String> included = new HashSet<>();
        List<Plan> batchable = plans.stream()
                .filter(p -> !p.including().isEmpty() && !p.filter().equals("id"))
                .toList();
        for (int i = 0; i < batchable.size(); i += CHUNK) {
            List<Plan> chunk = new ArrayList<>(batchable.subList(i, Math.min(batchable.size(), i + CHUNK)));
            for (int attempt = 0; attempt < 2 && !chunk.isEmpty(); attempt++) {
                Map<String, List<String>> params = new LinkedHashMap<>();
                chunk.forEach(p -> params.put(p.filter(), List.of(p.including().get(0))));
                Answer a = ask(ep, made, params);
                if (a.error == null) {
                    if (a.contains) {
                        chunk.forEach(p -> included.add(p.filter()));
                    }
                    break;
                }
                Set<String> named = new HashSet<>();
                if (a.body != null && a.body.isObject()) {
                    a.body.fields().forEachRemaining(e -> {
                        named.add(e.getKey());
                        if (e.getValue().toString().contains(UNKNOWN)) { // the same answer alone: no need to ask again
                            unknown.put(e.getKey(), "400 {\"" + e.getKey() + "\":" + e.getValue() + "}");
                        }
                    });
                }
                if (named.isEmpty()) {
                    break;
                }
                chunk.removeIf(p -> named.contains(p.filter()));
            }
        }
        return included;
    }

    private Step checkOne(Endpoint ep, ObjectFactory.Made made, JsonNode obj, String filter, String code) {
        switch (filter) {
            case "limit" -> {
                return new Step(limit(ep, filter), null);
            }
            case "offset" -> {
                return new Step(
                        pageOrder(
                                ep,
                                filter,
                                Map.of("limit", List.of("1"), "offset", List.of("0")),
                                Map.of("limit", List.of("1"), "offset", List.of("1"))),
                        null);
            }
            case "ordering" -> {
                return new Step(
                        pageOrder(
                                ep,
                                filter,
                                Map.of("limit", List.of("1"), "ordering", List.of("id")),
                                Map.of("limit", List.of("1"), "ordering", List.of("-id"))),
                        null);
            }
            default -> {}
        }
        int sep = filter.lastIndexOf("__");
        String base = sep > 0 && LOOKUPS.contains(filter.substring(sep + 2)) ? filter.substring(0, sep) : filter;
        String lookup = base.equals(filter) ? null : filter.substring(sep + 2);
        Subject subject = special(base, made, obj);
        if (subject == null) {
            // a number filter naming a relation takes its id (a VLAN group's rack_group: NumberFilter)
            subject = subjects.resolve(ep, obj, base, code.startsWith("integer") || code.startsWith("number"));
        }
        if (subject != null && code.startsWith("boolean") && subject.kind() != Kind.BOOLEAN) {
            // a field or relation of that name says nothing about a boolean filter's value
            // (a device's virtual_chassis_member is "is in a chassis", not its chassis's members)
            subject = null;
        }
        if (subject == null || (lookup != null && !applicable(lookup, subject))) {
            return new Step(
                    accepted(
                            ep,
                            made,
                            filter,
                            code,
                            subject == null
                                    ? "no value derivable for " + base
                                    : "lookup " + lookup + " not derivable for a " + subject.kind() + " value"),
                    null);
        }
        return new Step(null, plan(filter, code, lookup, withFilterChoices(ep, base, subject)));
    }

    /** Parameters whose value is not a field: free-text search, tags, change-log request ids. */
    private Subject special(String base, ObjectFactory.Made made, JsonNode obj) {
        switch (base) {
            case "q" -> {
                List<String> candidates = new ArrayList<>();
                for (String f : SEARCHED) {
                    JsonNode v = obj.get(f);
                    if (v != null
                            && v.isValueNode()
                            && !v.isNull()
                            && !v.asText().isEmpty()) {
                        candidates.add(v.asText());
                    }
                }
                return new Subject(
                        Kind.TEXT,
                        candidates.isEmpty() ? null : candidates.get(0),
                        candidates,
                        SubjectResolver.nonMatching(Kind.TEXT, null),
                        "search");
            }
            case "created_by_request", "updated_by_request", "modified_by_request" -> {
                String id = switch (base) {
                    case "created_by_request" -> made.createRequestId();
                    case "updated_by_request" -> made.updateRequestId();
                    default -> made.updateRequestId() != null ? made.updateRequestId() : made.createRequestId();
                };
                return new Subject(
                        Kind.UUID,
                        id,
                        id == null ? List.of() : List.of(id),
                        UUID.randomUUID().toString(),
                        "request id");
            }
            default -> {
                return null;
            }
        }
    }

    /** For filters with a choice list of their own (contract filter_choices), a non-matching choice. */
    private static Subject withFilterChoices(Endpoint ep, String base, Subject s) {
        JsonNode choices = ep.spec().path("filter_choices").get(base);
        if (choices == null || s.kind() == Kind.REF) {
            return s;
        }
        for (JsonNode c : choices) {
            if (!c.asText().equals("null") && !c.asText().equals(s.raw())) {
                return new Subject(s.kind(), s.raw(), s.matching(), c.asText(), s.how());
            }
        }
        return s;
    }

    private static boolean applicable(String lookup, Subject s) {
        return switch (lookup) {
            case "n", "empty" -> true;
            case "gt", "gte", "lt", "lte", "after", "before" ->
                s.kind() == Kind.NUMBER || s.kind() == Kind.DATETIME || s.kind() == Kind.DATE;
            default -> s.kind() == Kind.TEXT || s.kind() == Kind.REF || s.kind() == Kind.NUMBER;
        };
    }

    /** The behavioural check: values that must include the object, and one that must exclude it. */
    private static Plan plan(String filter, String code, String lookup, Subject s) {
        if ("empty".equals(lookup)) {
            return new Plan(
                    filter,
                    code,
                    List.of(String.valueOf(s.isEmptyValue())),
                    List.of(String.valueOf(!s.isEmptyValue())),
                    false,
                    s);
        }
        boolean negated = lookup != null
                && (lookup.equals("n") || (lookup.startsWith("n") && LOOKUPS.contains(lookup.substring(1))));
        String positive = lookup == null || lookup.equals("n") ? null : negated ? lookup.substring(1) : lookup;
        List<String> matching = new ArrayList<>();
        for (String v : s.matching()) {
            String m = transform(positive, v, s.kind(), true);
            if (m != null) {
                matching.add(m);
            }
        }
        String nonMatching;
        List<String> alternatives = List.of();
        if (positive == null) {
            nonMatching = s.nonMatching();
            alternatives = s.others();
        } else if (isComparison(positive)) {
            // no value (null): no comparison matches it, so any value of the kind must exclude it
            nonMatching = s.matching().isEmpty()
                    ? SubjectResolver.nonMatching(s.kind(), null)
                    : transform(positive, s.matching().get(0), s.kind(), false);
        } else {
            nonMatching = transform(positive, s.raw() == null ? "" : s.raw(), s.kind(), false);
        }
        List<String> nonMatchingList =
                !alternatives.isEmpty() ? alternatives : nonMatching == null ? List.of() : List.of(nonMatching);
        return negated
                ? new Plan(filter, code, nonMatchingList, matching, true, s)
                : new Plan(filter, code, matching, nonMatchingList, false, s);
    }

    private static boolean isComparison(String lookup) {
        return lookup != null
                && Set.of("gt", "gte", "lt", "lte", "after", "before").contains(lookup);
    }

    /**
     * Runs the two halves. Positive filters: the object must be in the answer for at least one of
     * {@code including} and absent for {@code excluding}. Negated: absent for at least one of
     * {@code excluding} (the object's own values), present for {@code including}.
     */
    private Result run(Endpoint ep, ObjectFactory.Made made, Plan plan, boolean includedTogether) {
        String filter = plan.filter();
        boolean negated = plan.negated();
        String why = "(" + plan.subject().how() + ")";
        Boolean includeOk = includedTogether ? Boolean.TRUE : null;
        String includeDetail = includedTogether ? plan.including().get(0) : null;
        // Values are candidates: a related object may be named by its slug, name or model, and
        // NetBox's filter takes one of them (a device type by model on interfaces, by slug on
        // devices) and refuses another with a 400 about the value, so the next one is tried. The
        // check fails on a refusal only when no candidate was taken.
        String refused = null;
        for (String v : includedTogether ? List.<String>of() : plan.including()) {
            Answer a = ask(ep, made, Map.of(filter, List.of(v)));
            if (a.error != null) {
                refused = refused == null ? a.error + " for " + filter + "=" + v : refused;
                if (a.error.contains(UNKNOWN)) {
                    return new Result(filter, Outcome.FAILED, refused);
                }
                continue;
            }
            includeOk = a.contains;
            includeDetail = v;
            if (a.contains || negated) {
                break; // negated: the first answered value of another object decides
            }
        }
        if (includeOk == null && refused != null) {
            return new Result(filter, Outcome.FAILED, refused);
        }
        Boolean excludeOk = null;
        String excludeDetail = null;
        for (String v : plan.excluding()) {
            Answer a = ask(ep, made, Map.of(filter, List.of(v)));
            if (a.error != null) {
                refused = refused == null ? a.error + " for " + filter + "=" + v : refused;
                if (a.error.contains(UNKNOWN)) {
                    return new Result(filter, Outcome.FAILED, refused);
                }
                continue;
            }
            excludeOk = !a.contains;
            excludeDetail = v;
            if (!a.contains || !negated) {
                break; // negated: any one own value that excludes suffices
            }
        }
        if (excludeOk == null && refused != null && !plan.excluding().isEmpty()) {
            return new Result(filter, Outcome.FAILED, refused);
        }
        if (includeOk == null && excludeOk == null) {
            return accepted(ep, made, filter, plan.code(), "no value derivable " + why);
        }
        if (Boolean.FALSE.equals(includeOk)) {
            return new Result(
                    filter, Outcome.FAILED, "object not returned for " + filter + "=" + includeDetail + " " + why);
        }
        if (Boolean.FALSE.equals(excludeOk)) {
            return new Result(
                    filter,
                    Outcome.FAILED,
                    "object still returned for " + filter + "=" + excludeDetail
                            + (negated ? " (negation not applied) " : " (filter ignored?) ") + why);
        }
        Outcome o = includeOk != null && excludeOk != null
                ? Outcome.FULL
                : excludeOk != null ? Outcome.EXCLUSION_ONLY : Outcome.INCLUSION_ONLY;
        return new Result(filter, o, why);
    }

    /** The object's value turned into the lookup's operand; {@code match} false: a value that must not match. */
    private static String transform(String lookup, String v, Kind kind, boolean match) {
        if (lookup == null) {
            return v;
        }
        switch (lookup) {
            case "gt", "gte", "lt", "lte", "after", "before" -> {
                // gt: v-1 matches, v+1 does not; gte: v / v+1; lt: v+1 / v-1; lte: v / v-1
                boolean upward = lookup.equals("gt") || lookup.equals("gte") || lookup.equals("after");
                boolean inclusive = lookup.equals("gte") || lookup.equals("lte");
                int step = match ? (inclusive ? 0 : (upward ? -1 : 1)) : (upward ? 1 : -1);
                return shift(kind, v, step);
            }
            default -> {}
        }
        if (!match) { // text lookups: a random string no object contains
            String random = "zq" + UUID.randomUUID().toString().substring(0, 8);
            return lookup.equals("ie") ? v + random : lookup.endsWith("regex") ? "^" + random + "$" : random;
        }
        int n = v.length();
        return switch (lookup) {
            case "ic" -> swapCase(n >= 3 ? v.substring(1, n - 1) : v);
            case "isw" -> swapCase(n >= 2 ? v.substring(0, n - 1) : v);
            case "iew" -> swapCase(n >= 2 ? v.substring(1) : v);
            case "ie" -> swapCase(v);
            case "regex" -> "^" + regexQuote(v) + "$";
            case "iregex" -> "^" + regexQuote(swapCase(v)) + "$";
            default -> null;
        };
    }

    private static String shift(Kind kind, String v, int step) {
        return switch (kind) {
            case NUMBER -> new BigDecimal(v).add(BigDecimal.valueOf(step)).toPlainString();
            case DATETIME ->
                OffsetDateTime.parse(v).plusSeconds(step).toInstant().toString();
            case DATE -> LocalDate.parse(v).plusDays(step).toString();
            default -> null;
        };
    }

    static String swapCase(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            sb.append(Character.isUpperCase(c) ? Character.toLowerCase(c) : Character.toUpperCase(c));
        }
        return sb.toString();
    }

    /** Escapes every non-alphanumeric character (a backslash before one is literal in Python and PostgreSQL). */
    private static String regexQuote(String s) {
        StringBuilder sb = new StringBuilder();
        for (char c : s.toCharArray()) {
            sb.append(Character.isLetterOrDigit(c) ? "" : "\\").append(c);
        }
        return sb.toString();
    }

    /** One anchored request: is the object in the answer? */
    private record Answer(boolean contains, String error, JsonNode body) {}

    private Answer ask(Endpoint ep, ObjectFactory.Made made, Map<String, List<String>> filters) {
        Map<String, List<String>> params = new LinkedHashMap<>(filters);
        if (!filters.containsKey("id")) {
            params.put("id", List.of(String.valueOf(made.id()))); // anchor: AND id=<object>
        }
        params.put("brief", List.of("1"));
        Http.Reply r = Http.get(ep.path(), params);
        if (r.status() != 200 || r.body() == null) {
            return new Answer(false, r.describe(), r.body());
        }
        for (JsonNode row : r.body().path("results")) {
            if (row.path("id").asLong() == made.id()) {
                return new Answer(true, null, r.body());
            }
        }
        return new Answer(false, null, r.body());
    }

    /**
     * No value to check behaviour with: the filter passes if it is accepted — a 200 for a value of
     * its type, or a 400 about the value (NetBox refuses an unknown related object too) but not
     * one saying the parameter is unknown.
     */
    private Result accepted(Endpoint ep, ObjectFactory.Made made, String filter, String code, String why) {
        String value = probeValue(code);
        Map<String, List<String>> params = new LinkedHashMap<>();
        params.put(filter, List.of(value));
        params.put("id", List.of(String.valueOf(made.id())));
        Http.Reply r = Http.get(ep.path(), params);
        boolean unknown = r.status() == 400 && r.text() != null && r.text().contains(UNKNOWN);
        if (r.status() == 200 || (r.status() == 400 && !unknown)) {
            return new Result(filter, Outcome.ACCEPTED, why + "; " + filter + "=" + value + " → " + r.status());
        }
        return new Result(filter, Outcome.FAILED, r.describe() + " for " + filter + "=" + value);
    }

    private static String probeValue(String code) {
        if (code == null) {
            return "1";
        }
        if (code.startsWith("boolean")) {
            return "true";
        }
        if (code.startsWith("integer") || code.startsWith("number")) {
            return "1";
        }
        if (code.contains("date-time")) {
            return "2030-01-15T10:00:00Z";
        }
        if (code.contains("(date)")) {
            return "2030-01-15";
        }
        if (code.contains("uuid")) {
            return UUID.randomUUID().toString();
        }
        return "zq-probe";
    }

    private Result limit(Endpoint ep, String filter) {
        Http.Reply r = Http.get(ep.path(), Map.of("limit", List.of("1")));
        if (r.status() != 200 || r.body() == null) {
            return new Result(filter, Outcome.FAILED, r.describe());
        }
        int size = r.body().path("results").size();
        long count = r.body().path("count").asLong();
        boolean ok = size <= 1 && (count <= 1 || !r.body().path("next").isNull());
        return new Result(
                filter, ok ? Outcome.FULL : Outcome.FAILED, ok ? "" : "limit=1 gave " + size + " of " + count);
    }

    /** offset / ordering: two one-row pages that must differ when there are two or more objects. */
    private Result pageOrder(Endpoint ep, String filter, Map<String, List<String>> a, Map<String, List<String>> b) {
        Http.Reply ra = Http.get(ep.path(), a);
        Http.Reply rb = Http.get(ep.path(), b);
        if (ra.status() != 200 || rb.status() != 200 || ra.body() == null || rb.body() == null) {
            return new Result(filter, Outcome.FAILED, (ra.status() != 200 ? ra : rb).describe());
        }
        if (ra.body().path("count").asLong() < 2) {
            return new Result(filter, Outcome.ACCEPTED, "fewer than two objects");
        }
        long ida = ra.body().path("results").path(0).path("id").asLong();
        long idb = rb.body().path("results").path(0).path("id").asLong();
        return new Result(
                filter,
                ida != idb ? Outcome.FULL : Outcome.FAILED,
                ida != idb ? "" : filter + " has no effect: both pages start with id " + ida);
    }
}
