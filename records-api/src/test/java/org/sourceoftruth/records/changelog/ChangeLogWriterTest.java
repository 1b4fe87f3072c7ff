package org.sourceoftruth.records.changelog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionalException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
class ChangeLogWriterTest {

    @Inject
    ChangeLogWriter recorder;

    @Inject
    DataSource dataSource;

    private ChangeLogTable table;
    private UUID requestId;
    private long siteId;

    @BeforeEach
    void setUp() {
        table = new ChangeLogTable(dataSource);
        requestId = UUID.randomUUID();
        siteId = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE / 2);
    }

    @Test
    void coalescesChangesOfOneObjectInOneTransaction() {
        long[] ids = new long[3];
        QuarkusTransaction.requiringNew().run(() -> {
            ids[0] = recorder.record(SampleChanges.change(requestId, ChangeAction.CREATE, siteId, 1));
            ids[1] = recorder.record(SampleChanges.change(requestId, ChangeAction.UPDATE, siteId, 2));
            ids[2] = recorder.record(SampleChanges.change(requestId, ChangeAction.CREATE, siteId + 1, 1));
        });

        assertEquals(ids[0], ids[1], "the second change of the site updates the first row");
        assertNotEquals(ids[0], ids[2], "another site gets its own row");
        List<ChangeLogTable.Row> rows = table.ofRequest(requestId);
        assertEquals(2, rows.size());
        ChangeLogTable.Row site = rows.get(0);
        assertEquals(siteId, site.objectId());
        assertEquals("create", site.action(), "the first action stands");
        assertNull(site.prechange(), "the first prechange stands");
        assertEquals(SampleChanges.snapshot(siteId, 2), site.postchange(), "the last postchange wins");
        assertEquals(SampleChanges.representation(siteId, 2), site.eventData(), "the last event data wins");
        assertEquals("tester", site.userName());
        assertEquals("site-" + siteId, site.objectRepr());
        assertEquals(siteId + 1, rows.get(1).objectId());
    }

    @Test
    void updateThenDeleteInOneTransactionIsADeleteWithTheFirstPrechange() {
        QuarkusTransaction.requiringNew().run(() -> {
            recorder.record(SampleChanges.change(requestId, ChangeAction.UPDATE, siteId, 5));
            recorder.record(SampleChanges.change(requestId, ChangeAction.UPDATE, siteId, 6));
            recorder.record(SampleChanges.change(requestId, ChangeAction.DELETE, siteId, 7));
        });

        List<ChangeLogTable.Row> rows = table.ofRequest(requestId);
        assertEquals(1, rows.size());
        assertEquals("delete", rows.get(0).action());
        assertEquals(SampleChanges.snapshot(siteId, 4), rows.get(0).prechange());
        assertNull(rows.get(0).postchange());
        assertEquals(SampleChanges.representation(siteId, 7), rows.get(0).eventData());
    }

    @Test
    void separateTransactionsWriteSeparateRowsInCommitOrder() {
        QuarkusTransaction.requiringNew()
                .run(() -> recorder.record(SampleChanges.change(requestId, ChangeAction.CREATE, siteId, 1)));
        QuarkusTransaction.requiringNew()
                .run(() -> recorder.record(SampleChanges.change(requestId, ChangeAction.UPDATE, siteId, 2)));

        List<ChangeLogTable.Row> rows = table.ofRequest(requestId);
        assertEquals(
                List.of("create", "update"),
                rows.stream().map(ChangeLogTable.Row::action).toList());
        assertTrue(rows.get(0).id() < rows.get(1).id());
        assertNotEquals(rows.get(0).changeId(), rows.get(1).changeId());
    }

    @Test
    void changeIdsAreTimeOrderedSoTheirIndexGrowsAtTheEnd() {
        List<ChangeRecord> several = new ArrayList<>();
        for (int i = 1; i <= 50; i++) {
            several.add(SampleChanges.change(requestId, ChangeAction.CREATE, siteId + i, 1));
        }
        QuarkusTransaction.requiringNew()
                .run(() -> recorder.record(SampleChanges.change(requestId, ChangeAction.CREATE, siteId, 1)));
        QuarkusTransaction.requiringNew().run(() -> recorder.recordAll(several));

        List<ChangeLogTable.Row> rows = table.ofRequest(requestId);
        assertEquals(51, rows.size());
        for (int i = 0; i < rows.size(); i++) {
            UUID changeId = rows.get(i).changeId();
            assertEquals(7, changeId.version(), "a version 7 (time-ordered) UUID: " + changeId);
            if (i > 0) {
                // UUID.compareTo compares signed halves; version 7 ids order as unsigned text
                assertTrue(
                        rows.get(i - 1).changeId().toString().compareTo(changeId.toString()) < 0,
                        "change ids increase with the rows' ids: "
                                + rows.get(i - 1).changeId() + " then " + changeId);
            }
        }
        assertEquals(
                7,
                UUID.fromString(io.restassured.RestAssured.get("/api/").header("X-Request-ID"))
                        .version(),
                "request ids are time-ordered too");
    }

    @Test
    void recordsSeveralChangesInOneStatementInTheirOrderWithTheirTextIntact() {
        // text that array literals must quote or escape: the change log carries it as written
        String awkward = "NULL \"quoted\" \\ {braces}, commas; \u00fcnicode";
        ObjectNode awkwardJson = SampleChanges.snapshot(siteId + 5, 1).put("description", awkward);
        List<ChangeRecord> changes = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            changes.add(SampleChanges.change(
                    requestId, i % 2 == 0 ? ChangeAction.CREATE : ChangeAction.UPDATE, siteId + i, 3));
        }
        // a user id no account has (a user deleted in the same request): kept by name, not linked
        changes.add(new ChangeRecord(
                Long.MAX_VALUE,
                awkward,
                requestId,
                ChangeAction.UPDATE,
                SampleChanges.SITE,
                siteId + 5,
                awkward,
                "",
                null,
                awkwardJson,
                awkwardJson,
                "dcim.region",
                7L));
        QuarkusTransaction.requiringNew().run(() -> {
            recorder.recordAll(changes);
            // a later change of one of them in the same transaction finds its row
            recorder.record(SampleChanges.change(requestId, ChangeAction.UPDATE, siteId + 3, 4));
        });

        List<ChangeLogTable.Row> rows = table.ofRequest(requestId);
        assertEquals(6, rows.size(), "one row per object: the later change updated its row");
        for (int i = 0; i < 6; i++) {
            assertEquals(siteId + i, rows.get(i).objectId(), "rows follow the changes' order");
        }
        assertEquals(
                List.of("create", "update", "create", "update", "create", "update"),
                rows.stream().map(ChangeLogTable.Row::action).toList());
        assertEquals(SampleChanges.snapshot(siteId + 3, 4), rows.get(3).postchange(), "the later change's snapshot");
        assertEquals(SampleChanges.snapshot(siteId + 1, 3), rows.get(1).postchange());
        assertNull(rows.get(0).prechange());
        ChangeLogTable.Row odd = rows.get(5);
        assertEquals(awkward, odd.userName());
        assertEquals(awkward, odd.objectRepr());
        assertEquals(awkwardJson, odd.postchange());
        assertEquals(awkwardJson, odd.eventData());
        assertNull(table.single("select user_id from core_objectchange where id = ?", odd.id()));
        assertEquals(
                "dcim.region 7",
                table.single(
                        "select related_object_type || ' ' || related_object_id from core_objectchange where id = ?",
                        odd.id()));
        assertEquals(
                6, rows.stream().map(ChangeLogTable.Row::changeId).distinct().count());
    }

    @Test
    void aRolledBackWriteLeavesNoChangeBehind() {
        assertThrows(
                IllegalStateException.class,
                () -> QuarkusTransaction.requiringNew().run(() -> {
                    recorder.record(SampleChanges.change(requestId, ChangeAction.CREATE, siteId, 1));
                    throw new IllegalStateException("the object write failed");
                }));
        assertEquals(List.of(), table.ofRequest(requestId));
    }

    @Test
    void refusesToRecordOutsideATransaction() {
        assertThrows(
                TransactionalException.class,
                () -> recorder.record(SampleChanges.change(requestId, ChangeAction.CREATE, siteId, 1)));
        assertEquals(List.of(), table.ofRequest(requestId));
    }
}
