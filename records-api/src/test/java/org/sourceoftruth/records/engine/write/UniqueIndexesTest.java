package org.sourceoftruth.records.engine.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sourceoftruth.records.db.Db;
import org.sourceoftruth.records.model.Fields;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.UniqueRule;

/**
 * The guard behind every declared uniqueness rule: each has the unique indexes that make it hold
 * under concurrent writers (one per pattern of NULLs), so a model declared later cannot forget
 * its index in the migration. Writes it on {@code target/unique-rules.txt}: rule by rule, the
 * index behind it.
 */
@QuarkusTest
class UniqueIndexesTest {
    @Inject
    ModelRegistry registry;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void everyDeclaredUniqueRuleHasItsUniqueIndexes() throws Exception {
        UniqueIndexes.Matching matching;
        try (Connection c = dataSource.getConnection()) {
            matching = UniqueIndexes.match(new Db(c), registry.all());
        }
        StringBuilder report = new StringBuilder();
        matching.enforced()
                .forEach((req, index) -> report.append(req.describe())
                        .append("  <-  ")
                        .append(index.name())
                        .append('\n'));
        java.nio.file.Files.writeString(java.nio.file.Path.of("target", "unique-rules.txt"), report);
        long rules =
                registry.all().stream().mapToLong(m -> m.uniqueRules().size()).sum();
        System.out.printf(
                "unique rules: %d, indexes they need: %d, enforced: %d, missing: %d%n",
                rules,
                matching.enforced().size() + matching.unenforced().size(),
                matching.enforced().size(),
                matching.unenforced().size());
        assertEquals(
                List.of(),
                matching.unenforced().stream()
                        .map(UniqueIndexes.Requirement::describe)
                        .toList(),
                "declared uniqueness rules without their unique index (add it in a migration)");
        assertTrue(rules > 100, "the registry declares uniqueness rules (" + rules + ")");
    }

    /**
     * The check finds what is missing: a rule no index enforces, and each NULL pattern of a rule
     * that compares NULLs as equal; an index over fewer of a rule's columns enforces it (a site's
     * name is unique, so it is unique per facility too).
     */
    @Test
    void aRuleWithoutItsIndexesIsReported() throws Exception {
        Model site = Model.of("dcim", "sites", "dcim.site", "dcim_site", "site")
                .fields(Fields.str("name").required().max(100))
                .unique(UniqueRule.of("Description taken.", "facility", "description"))
                .unique(UniqueRule.of("Name taken per tenant.", "tenant_id", "name")
                        .ignoreCase("name"))
                .unique(UniqueRule.of("Name taken per facility.", "facility", "name"));
        UniqueIndexes.Matching matching;
        try (Connection c = dataSource.getConnection()) {
            matching = UniqueIndexes.match(new Db(c), List.of(site));
        }
        assertEquals(
                List.of(
                        "dcim.site: unique (facility, description)",
                        "dcim.site: unique (tenant_id, lower(name))",
                        "dcim.site: unique (lower(name)) where tenant_id IS NULL"),
                matching.unenforced().stream()
                        .map(UniqueIndexes.Requirement::describe)
                        .toList());
        assertEquals(
                List.of("dcim.site: unique (facility, name)"),
                matching.enforced().keySet().stream()
                        .map(UniqueIndexes.Requirement::describe)
                        .toList());
    }

    /**
     * The migration's way with stored duplicates: the index is not built, the duplicate rows are
     * recorded (key values and ids) and nothing fails; once they are resolved, the retry builds it.
     */
    @Test
    void anIndexThatStoredDuplicatesBreakIsRecordedAndBuiltOnceResolved() throws Exception {
        try (Connection c = dataSource.getConnection();
                java.sql.Statement st = c.createStatement()) {
            st.execute("drop table if exists unique_probe");
            st.execute("create table unique_probe (id bigint primary key, name text not null, group_id bigint)");
            st.execute("insert into unique_probe values (1, 'Edge', null), (2, 'edge', null), (3, 'edge', 7)");
            try {
                assertEquals(
                        false,
                        scalar(
                                st,
                                "select unique_index_create('unique_probe_name', 'unique_probe',"
                                        + " 'lower(name)', 'group_id is null')"));
                assertEquals(null, scalar(st, "select to_regclass('unique_probe_name')::text"));
                assertEquals(
                        "{\"lower\":\"edge\",\"ids\":[1,2]}",
                        scalar(
                                st,
                                "select duplicates from unique_index_pending where index_name = 'unique_probe_name'"));
                assertEquals(
                        "unique_probe_name",
                        scalar(
                                st,
                                "select string_agg(index_name, ',') from unique_index_retry_pending()"
                                        + " where index_name like 'unique_probe%'"));

                st.execute("update unique_probe set name = 'edge-2' where id = 2");
                assertEquals(
                        null,
                        scalar(
                                st,
                                "select string_agg(index_name, ',') from unique_index_retry_pending()"
                                        + " where index_name like 'unique_probe%'"));
                assertEquals("unique_probe_name", scalar(st, "select to_regclass('unique_probe_name')::text"));
                assertEquals(
                        0L,
                        scalar(st, "select count(*) from unique_index_pending where index_name = 'unique_probe_name'"));
            } finally {
                st.execute("delete from unique_index_pending where index_name like 'unique_probe%'");
                st.execute("drop table unique_probe");
            }
        }
    }

    private static Object scalar(java.sql.Statement st, String sql) throws java.sql.SQLException {
        try (java.sql.ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getObject(1);
        }
    }
}
