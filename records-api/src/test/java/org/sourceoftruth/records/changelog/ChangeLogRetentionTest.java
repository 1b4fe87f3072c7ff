package org.sourceoftruth.records.changelog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
class ChangeLogRetentionTest {

    @Inject
    ChangeLogWriter recorder;

    @Inject
    ChangeLogRetention retention;

    @Inject
    RelayLifecycle lifecycle;

    @Inject
    DataSource dataSource;

    private ChangeLogTable table;

    @BeforeEach
    void holdTheRelay() {
        // Which rows are published is the test's to decide here.
        lifecycle.relay().stop(Duration.ofSeconds(10));
        table = new ChangeLogTable(dataSource);
    }

    @AfterEach
    void releaseTheRelay() {
        lifecycle.relay().start();
    }

    @Test
    void deletesOldPublishedRowsOnly() throws Exception {
        UUID requestId = UUID.randomUUID();
        long site = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE / 2);
        QuarkusTransaction.requiringNew().run(() -> {
            for (int i = 0; i < 3; i++) {
                recorder.record(SampleChanges.change(requestId, ChangeAction.CREATE, site + i, 1));
            }
        });
        List<ChangeLogTable.Row> rows = table.ofRequest(requestId);
        age(rows.get(0), 100, true); // expired and published: goes
        age(rows.get(1), 100, false); // expired but still owed to Kafka: stays
        age(rows.get(2), 10, true); // published but young: stays

        assertEquals(0, retention.purge(0), "0 keeps the change log forever");
        assertEquals(3, table.ofRequest(requestId).size());

        retention.purge(90);
        List<Long> left =
                table.ofRequest(requestId).stream().map(ChangeLogTable.Row::id).toList();
        assertEquals(List.of(rows.get(1).id(), rows.get(2).id()), left);
    }

    private void age(ChangeLogTable.Row row, int days, boolean published) {
        table.update(
                "update core_objectchange set time = now() - make_interval(days => ?) where id = ?", days, row.id());
        table.update(
                published
                        ? "delete from core_objectchange_pending where id = ?"
                        : "insert into core_objectchange_pending (id) values (?) on conflict do nothing",
                row.id());
    }
}
