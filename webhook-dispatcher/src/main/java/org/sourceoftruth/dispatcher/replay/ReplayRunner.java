package org.sourceoftruth.dispatcher.replay;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;
import org.sourceoftruth.dispatcher.consume.DeliveryPlanner;
import org.sourceoftruth.dispatcher.delivery.DeliveryRecorder;
import org.sourceoftruth.dispatcher.delivery.DeliveryWorker;
import org.sourceoftruth.dispatcher.delivery.NewDelivery;
import org.sourceoftruth.dispatcher.recordsapi.RecordsApiClient;
import org.sourceoftruth.dispatcher.recordsapi.RecordsApiException;
import org.sourceoftruth.dispatcher.rules.ActiveRule;
import org.sourceoftruth.dispatcher.rules.RuleCache;
import org.sourceoftruth.model.ChangeEvent;
import org.sourceoftruth.model.Json;

/**
 * Runs replays, one page of changes at a time, on a thread of its own in every replica (a lease
 * in dispatch.replay gives each running replay to one of them; another takes it up when that one
 * dies). A page is read from records-api's change log ({@code /api/core/change-events/}), in
 * sequence order; its changes are matched against the rules that send to the replay's webhook
 * now (the webhook is being fed the past as it is configured today), and the deliveries are
 * recorded with the replay's progress in one transaction: they go through the same rendering,
 * signing, per-object order and delivery records as the change stream. Pages are paced so that
 * no more than the replay's rate of deliveries a second is recorded.
 */
@ApplicationScoped
public class ReplayRunner {

    private static final Logger LOG = Logger.getLogger(ReplayRunner.class);
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration IDLE = Duration.ofSeconds(2);
    private static final int MAX_PAGE = 500;

    @Inject
    ReplayStore store;

    @Inject
    RecordsApiClient recordsApi;

    @Inject
    RuleCache rules;

    @Inject
    DeliveryPlanner planner;

    @Inject
    DeliveryRecorder recorder;

    @Inject
    DeliveryWorker worker;

    private final String owner = "replay-runner-" + UUID.randomUUID();
    private final Semaphore wakeups = new Semaphore(0);
    private volatile boolean running;
    private Thread thread;

    void onStart(@Observes StartupEvent event) {
        running = true;
        thread = new Thread(this::loop, "replay-runner");
        thread.setDaemon(true);
        thread.start();
    }

    void onStop(@Observes ShutdownEvent event) {
        running = false;
        wake();
    }

    /** A replay was created: look for work now. */
    public void wake() {
        wakeups.release();
    }

    private void loop() {
        while (running) {
            long pause = IDLE.toMillis();
            try {
                Optional<Replay> replay = store.claim(owner, LEASE);
                if (replay.isPresent()) {
                    pause = runPage(replay.get());
                }
            } catch (SQLException | RuntimeException e) {
                LOG.warnf("Replay runner: %s (trying again)", e.getMessage());
            }
            try {
                wakeups.tryAcquire(pause, TimeUnit.MILLISECONDS);
                wakeups.drainPermits();
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /**
     * Records the deliveries of the replay's next page.
     *
     * @return how long to wait before the next page (the rate's pacing)
     */
    long runPage(Replay replay) throws SQLException {
        List<ActiveRule> sending;
        try {
            sending = rules.rulesOfWebhook(replay.webhookId());
        } catch (RuntimeException notLoadedYet) {
            return IDLE.toMillis();
        }
        if (sending.isEmpty()) {
            store.fail(
                    replay.id(),
                    owner,
                    "no enabled event rule sends to webhook " + replay.webhookId()
                            + " (any more): nothing to match with");
            return 0;
        }
        JsonNode page;
        try {
            page = recordsApi
                    .get(path(replay))
                    .orElseThrow(() -> new RecordsApiException("records-api has no" + " /api/core/change-events/"));
        } catch (RecordsApiException e) {
            store.note(replay.id(), "records-api: " + e.getMessage());
            return IDLE.toMillis();
        }
        List<NewDelivery> deliveries = new ArrayList<>();
        long position = replay.position();
        int read = 0;
        for (JsonNode node : page.path("results")) {
            read++;
            position = Math.max(position, node.path("sequence").asLong());
            if (node.has("error")) {
                continue; // a change records-api cannot make an event of: nothing to send
            }
            ChangeEvent event = Json.MAPPER.convertValue(node, ChangeEvent.class);
            String eventType = ActiveRule.eventType(event.event());
            List<ActiveRule> eligible = sending.stream()
                    .filter(rule -> rule.objectTypes().contains(event.model())
                            && rule.eventTypes().contains(eventType))
                    .toList();
            for (NewDelivery delivery : planner.plan(event, eligible)) {
                deliveries.add(delivery.inReplay(replay.id()));
            }
        }
        boolean finished = page.path("next").isNull() || page.path("next").isMissingNode();
        long reached = position;
        int changes = read;
        boolean recorded = recorder.recordWith(
                deliveries,
                connection -> store.advance(
                        connection, replay.id(), owner, LEASE, reached, changes, deliveries.size(), finished));
        if (!recorded) {
            return 0; // cancelled meanwhile, or taken over: nothing written
        }
        if (!deliveries.isEmpty()) {
            worker.wake();
        }
        if (finished) {
            LOG.infof(
                    "Replay %d to webhook %d finished: %d changes read, %d deliveries",
                    replay.id(),
                    replay.webhookId(),
                    replay.changesRead() + read,
                    replay.deliveries() + deliveries.size());
            return 0;
        }
        return deliveries.size() * 1000L / replay.rate();
    }

    /** The next page of the replay's changes at records-api: at most a second's worth of its rate. */
    private static String path(Replay replay) {
        StringBuilder path = new StringBuilder("/api/core/change-events/?sequence__gt=")
                .append(replay.position())
                .append("&limit=")
                .append(Math.max(1, Math.min(MAX_PAGE, replay.rate())));
        if (replay.changeId() != null) {
            path.append("&change_id=").append(replay.changeId());
        }
        if (replay.since() != null) {
            path.append("&time__gte=").append(encode(replay.since().toString()));
        }
        if (replay.until() != null) {
            path.append("&time__lt=").append(encode(replay.until().toString()));
        }
        for (String type : replay.objectTypes()) {
            path.append("&model=").append(encode(type));
        }
        return path.toString();
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
