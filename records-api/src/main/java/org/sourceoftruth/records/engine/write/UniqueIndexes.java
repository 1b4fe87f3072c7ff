package org.sourceoftruth.records.engine.write;

import io.agroal.api.AgroalDataSource;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.jboss.logging.Logger;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;
import org.sourceoftruth.records.model.UniqueRule;

/**
 * The database's side of the declared uniqueness rules: the unique indexes that make each rule
 * hold under concurrent writers, where the check before the write (which cannot see rows other
 * transactions have not committed yet) does not.
 *
 * <p>A rule needs one unique index per pattern of NULLs its nullable columns can take: NULLs
 * compare equal in the rules and distinct in an index. A device's name, unique per site and
 * tenant, is enforced by {@code (lower(name), site_id, tenant_id)} and by {@code (lower(name),
 * site_id) WHERE tenant_id IS NULL}, as NetBox's two constraints. Indexes are matched to rules by
 * definition (key terms and WHERE conditions), read from PostgreSQL's catalog, not by name (the
 * first migrations left naming to PostgreSQL); a unique violation is then mapped back to its rule
 * by the violated index's name.
 */
@ApplicationScoped
public class UniqueIndexes {
    private static final Logger LOG = Logger.getLogger(UniqueIndexes.class);

    /**
     * One unique index a rule needs.
     *
     * @param keys        key terms: a column, or lower(column) for one compared case-insensitively
     * @param conditions  the conjuncts of its WHERE clause: "c IS NULL", "c <> ''"
     * @param nullColumns the rule's columns that are null in the rows this index covers
     */
    public record Requirement(
            Model model, UniqueRule rule, Set<String> keys, Set<String> conditions, List<String> nullColumns) {
        /** "dcim.device: unique (lower(name), site_id) where tenant_id IS NULL". */
        public String describe() {
            return model.contentType() + ": unique (" + String.join(", ", keys) + ")"
                    + (conditions.isEmpty() ? "" : " where " + String.join(" and ", conditions));
        }
    }

    /** A unique index as the catalog has it, its terms in the canonical form of {@link Requirement}. */
    public record Index(String table, String name, Set<String> keys, Set<String> conditions, boolean valid) {}

    /**
     * The rules' requirements matched to the database's indexes: each index's requirement (the
     * one it exactly matches, else the first it enforces), every unique index by name, each
     * enforced requirement with the index that enforces it, and the requirements none enforces.
     */
    public record Matching(
            Map<String, Requirement> byIndex,
            Map<String, Index> indexes,
            Map<Requirement, Index> enforced,
            List<Requirement> unenforced) {}

    @Inject
    AgroalDataSource dataSource;

    @Inject
    ModelRegistry registry;

    /** Index name → the requirement it meets; read at start-up (migrations run before). */
    private volatile Map<String, Requirement> byIndex = Map.of();

    /** Index name → the index, for the order of its key terms. */
    private volatile Map<String, Index> indexes = Map.of();

    void onStart(@Observes StartupEvent event) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            Db db = new Db(c);
            List<String> stillPending = retryPending(db);
            Matching matching = match(db, registry.all());
            byIndex = matching.byIndex();
            indexes = matching.indexes();
            for (Requirement missing : matching.unenforced()) {
                LOG.warnf(
                        "uniqueness rule not enforced by the database (concurrent writers may store duplicates): %s",
                        missing.describe());
            }
            stillPending.forEach(line -> LOG.warn(line));
        }
    }

    /** The rule a unique index (by name) enforces, if it is one of the declared rules' indexes. */
    public Optional<Requirement> enforcedBy(String indexName) {
        return Optional.ofNullable(indexName).map(byIndex::get);
    }

    /** The key terms of a unique index in its own order (as PostgreSQL lists them in a violation's detail). */
    public List<String> keyTerms(String indexName) {
        Index index = indexName == null ? null : indexes.get(indexName);
        return index == null ? List.of() : List.copyOf(index.keys());
    }

    /**
     * Unique indexes a migration could not build because stored rows already broke their rule
     * (table {@code unique_index_pending}, see {@code docs/unique-rules.md}): tried again, for
     * duplicates an operator has resolved since; one line per index still pending, naming the
     * duplicate rows.
     */
    private static List<String> retryPending(Db db) {
        if (db.query("select to_regclass('unique_index_pending') is not null as present")
                        .get(0)
                        .get("present")
                != Boolean.TRUE) {
            return List.of();
        }
        if (db.query("select 1 from unique_index_pending limit 1").isEmpty()) {
            return List.of();
        }
        List<String> lines = new ArrayList<>();
        for (Row row : db.query("select index_name, table_name, duplicates from unique_index_retry_pending()")) {
            lines.add("unique index " + row.get("index_name") + " on " + row.get("table_name")
                    + " is not built: stored rows break its rule; resolve these duplicates (ids), then restart"
                    + " or run select * from unique_index_retry_pending(): " + row.get("duplicates"));
        }
        return lines;
    }

    /** Matches every rule of the models to the database's unique indexes. */
    public static Matching match(Db db, Collection<Model> models) {
        Set<String> tables = new TreeSet<>();
        models.forEach(m -> tables.add(m.table()));
        Map<String, Set<String>> nullable = nullableColumns(db, tables);
        Map<String, List<Index>> indexes = new HashMap<>();
        Map<String, Index> byName = new LinkedHashMap<>();
        for (Index index : indexes(db, tables)) {
            indexes.computeIfAbsent(index.table(), t -> new ArrayList<>()).add(index);
            byName.put(index.name(), index);
        }
        List<Requirement> all = new ArrayList<>();
        for (Model model : models) {
            for (UniqueRule rule : model.uniqueRules()) {
                all.addAll(requirements(model, rule, nullable.getOrDefault(model.table(), Set.of())));
            }
        }
        // An index of exactly a requirement's terms is that requirement's; one of fewer terms
        // over as many rows or more enforces it too (a tenant group's name, unique across the
        // tree, is unique among siblings), and stays the index of the rule it exactly matches.
        Map<String, Requirement> byIndex = new LinkedHashMap<>();
        Map<Requirement, Index> enforcing = new LinkedHashMap<>();
        for (boolean exact : new boolean[] {true, false}) {
            for (Requirement req : all) {
                if (enforcing.containsKey(req)) {
                    continue;
                }
                indexes.getOrDefault(req.model().table(), List.of()).stream()
                        .filter(i -> i.valid() && enforces(i, req, exact))
                        .findFirst()
                        .ifPresent(i -> {
                            enforcing.put(req, i);
                            byIndex.putIfAbsent(i.name(), req);
                        });
            }
        }
        Map<Requirement, Index> enforced = new LinkedHashMap<>();
        all.stream().filter(enforcing::containsKey).forEach(r -> enforced.put(r, enforcing.get(r)));
        List<Requirement> unenforced =
                all.stream().filter(r -> !enforcing.containsKey(r)).toList();
        return new Matching(byIndex, byName, enforced, unenforced);
    }

    /**
     * Whether the index refuses every duplicate the requirement refuses: the same terms over the
     * same rows, or (not {@code exact}) a subset of them over as many rows or more.
     */
    private static boolean enforces(Index index, Requirement req, boolean exact) {
        return exact
                ? index.keys().equals(req.keys()) && index.conditions().equals(req.conditions())
                : req.keys().containsAll(index.keys()) && req.conditions().containsAll(index.conditions());
    }

    /**
     * The unique indexes a rule needs, given which of the table's columns may be null: one per
     * subset of its nullable columns the rule compares as equal when null (those not in
     * skipIfNull or skipIfBlank), keyed on the rule's other columns and restricted to rows where
     * that subset is null; each restricted further by the rule's own conditions.
     */
    public static List<Requirement> requirements(Model model, UniqueRule rule, Set<String> nullableColumns) {
        List<String> nullable = rule.columns().stream()
                .filter(nullableColumns::contains)
                .filter(c ->
                        !rule.skipIfNull().contains(c) && !rule.skipIfBlank().contains(c))
                .toList();
        Set<String> ruleConditions = new LinkedHashSet<>();
        rule.onlyIfNull().forEach(c -> ruleConditions.add(c + " IS NULL"));
        rule.skipIfBlank().forEach(c -> ruleConditions.add(c + " <> ''"));
        List<Requirement> out = new ArrayList<>();
        for (int pattern = 0; pattern < 1 << nullable.size(); pattern++) {
            List<String> nulls = new ArrayList<>();
            for (int b = 0; b < nullable.size(); b++) {
                if ((pattern & 1 << b) != 0) {
                    nulls.add(nullable.get(b));
                }
            }
            Set<String> keys = new LinkedHashSet<>();
            for (String c : rule.columns()) {
                if (!nulls.contains(c)) {
                    keys.add(rule.caseInsensitive().contains(c) ? "lower(" + c + ")" : c);
                }
            }
            Set<String> conditions = new LinkedHashSet<>();
            nulls.forEach(c -> conditions.add(c + " IS NULL"));
            conditions.addAll(ruleConditions);
            out.add(new Requirement(model, rule, keys, withoutImplied(conditions, keys), List.copyOf(nulls)));
        }
        return out;
    }

    /** The unique indexes of the tables, with their key terms and WHERE conjuncts in canonical form. */
    public static List<Index> indexes(Db db, Collection<String> tables) {
        Map<String, String> tableOf = new LinkedHashMap<>();
        Map<String, List<String>> keys = new LinkedHashMap<>();
        Map<String, String> predicates = new HashMap<>();
        Set<String> valid = new HashSet<>();
        for (Row row : db.query(
                "select c.relname::text as table_name, i.relname::text as index_name, x.indisvalid as valid,"
                        + " pg_get_expr(x.indpred, x.indrelid, true) as predicate,"
                        + " pg_get_indexdef(x.indexrelid, k, true) as key_term"
                        + " from pg_index x join pg_class c on c.oid = x.indrelid join pg_class i on i.oid = x.indexrelid,"
                        + " generate_series(1, x.indnkeyatts) k"
                        + " where x.indisunique and c.relnamespace = current_schema()::regnamespace"
                        + " and c.relname::text = any(?) order by i.relname, k",
                new Db.SqlArray("text", tables))) {
            String name = (String) row.get("index_name");
            tableOf.put(name, (String) row.get("table_name"));
            keys.computeIfAbsent(name, n -> new ArrayList<>()).add(canonical((String) row.get("key_term")));
            predicates.put(name, (String) row.get("predicate"));
            if (Boolean.TRUE.equals(row.get("valid"))) {
                valid.add(name);
            }
        }
        List<Index> out = new ArrayList<>();
        tableOf.forEach((name, table) -> {
            Set<String> keySet = new LinkedHashSet<>(keys.get(name));
            Set<String> conditions = new LinkedHashSet<>();
            String predicate = predicates.get(name);
            if (predicate != null) {
                for (String conjunct : predicate.split(" AND ")) {
                    conditions.add(canonical(stripParentheses(conjunct.trim())));
                }
            }
            out.add(new Index(table, name, keySet, withoutImplied(conditions, keySet), valid.contains(name)));
        });
        return out;
    }

    /** Drops "k IS NOT NULL" for a key column k: NULL keys never collide, so it restricts nothing. */
    private static Set<String> withoutImplied(Set<String> conditions, Set<String> keys) {
        Set<String> out = new LinkedHashSet<>(conditions);
        keys.forEach(k -> out.remove(k + " IS NOT NULL"));
        return out;
    }

    /** The catalog's text of a term without casts to text and identifier quotes: lower(name), "position". */
    private static String canonical(String term) {
        return term.replace("::character varying", "")
                .replace("::text", "")
                .replace("\"", "")
                .replaceAll("\\s+", " ")
                .trim();
    }

    private static String stripParentheses(String s) {
        while (s.startsWith("(") && s.endsWith(")")) {
            s = s.substring(1, s.length() - 1).trim();
        }
        return s;
    }

    private static Map<String, Set<String>> nullableColumns(Db db, Collection<String> tables) {
        Map<String, Set<String>> out = new HashMap<>();
        for (Row row : db.query(
                "select c.relname::text as table_name, a.attname::text as column_name from pg_attribute a"
                        + " join pg_class c on c.oid = a.attrelid"
                        + " where c.relnamespace = current_schema()::regnamespace and c.relname::text = any(?)"
                        + " and a.attnum > 0 and not a.attisdropped and not a.attnotnull",
                new Db.SqlArray("text", tables))) {
            out.computeIfAbsent((String) row.get("table_name"), t -> new HashSet<>())
                    .add((String) row.get("column_name"));
        }
        return out;
    }
}
