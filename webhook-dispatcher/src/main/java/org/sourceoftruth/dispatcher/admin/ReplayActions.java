package org.sourceoftruth.dispatcher.admin;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.Map;
import org.sourceoftruth.dispatcher.delivery.DeliveryAdmin;
import org.sourceoftruth.dispatcher.replay.Replay;
import org.sourceoftruth.dispatcher.replay.ReplayStore;

/** What the replay API and page share: finding, cancelling and showing a replay. */
@ApplicationScoped
public class ReplayActions {

    @Inject
    ReplayStore store;

    @Inject
    DeliveryAdmin deliveries;

    Replay find(long id) throws SQLException {
        return store.get(id).orElseThrow(BackgroundTaskResource::notFound);
    }

    /** running → cancelled, its unsent deliveries failed; 409 when it is not running. */
    void cancel(long id, String username) throws SQLException {
        Replay replay = find(id);
        if (!store.cancel(id)) {
            throw ApiException.detail(409, "Replay " + id + " is " + replay.state() + ", not running.");
        }
        deliveries.stopReplay(id, "Replay " + id + " was cancelled by " + username + " before this was delivered.");
    }

    /** The replay as the API shows it, with its deliveries by state. */
    Map<String, Object> represent(Replay replay, String collectionUrl) throws SQLException {
        Map<String, Object> shown = new LinkedHashMap<>();
        shown.put("id", replay.id());
        shown.put("url", collectionUrl + replay.id() + "/");
        shown.put("state", replay.state());
        shown.put("webhook", Map.of("id", replay.webhookId(), "name", replay.webhookName()));
        shown.put(
                "change_id",
                replay.changeId() == null ? null : replay.changeId().toString());
        shown.put("since", iso(replay.since()));
        shown.put("until", iso(replay.until()));
        shown.put("object_types", replay.objectTypes());
        shown.put("rate", replay.rate());
        shown.put("position", replay.position());
        shown.put("changes_read", replay.changesRead());
        shown.put("deliveries", replay.deliveries());
        shown.put("deliveries_by_state", store.deliveriesByState(replay.id()));
        shown.put("error", replay.error());
        shown.put("created", iso(replay.created()));
        shown.put("created_by", replay.createdBy());
        shown.put("finished_at", iso(replay.finishedAt()));
        return shown;
    }

    private static String iso(OffsetDateTime time) {
        return time == null ? null : time.toInstant().toString();
    }
}
