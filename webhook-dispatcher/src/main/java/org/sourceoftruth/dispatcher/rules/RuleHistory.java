package org.sourceoftruth.dispatcher.rules;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jboss.logging.Logger;
import org.sourceoftruth.dispatcher.recordsapi.RecordsApiClient;
import org.sourceoftruth.dispatcher.recordsapi.RecordsApiException;
import org.sourceoftruth.model.ChangeEvent;
import org.sourceoftruth.model.Json;

/**
 * The event rules and webhooks as they were at each rules version, so that a change is matched
 * against the rules in force when it was recorded (its event's {@code rules_version}), not those of
 * the moment it is consumed: a rule created after the change does not fire for it, one disabled or
 * deleted after it still does, with the settings it had.
 *
 * <p>records-api moves the version on by one with every change of a rule or webhook, in commit
 * order, and serves those changes as events ({@code /api/core/change-events/}). This replica reads
 * them all once (with the current lists, for rules unchanged since the change log was last
 * purged), and then, whenever an event names a version it has not read up to, the changes after
 * the last one it has: since versions are taken in commit order, having read version n means
 * having read every version below it. Every replica reads the whole history itself, so the answer
 * does not depend on which replica consumes which partitions.
 *
 * <p>The state of a rule or webhook at version v is the one its last change at or below v left;
 * a rule whose changes all came after v did not exist at v if the first was its creation, and
 * otherwise (its older changes purged from the change log) is taken as the first of them left it.
 */
@ApplicationScoped
public class RuleHistory {

    private static final Logger LOG = Logger.getLogger(RuleHistory.class);
    /** Indexes kept, by version: changes of one stretch of time mostly share a few versions. */
    private static final int INDEXES_KEPT = 16;

    private static final String HISTORY_PATH = "/api/core/change-events/?model=" + RuleCache.EVENT_RULE_MODEL
            + "&model=" + EventRuleDefinition.WEBHOOK_MODEL + "&rules_version__gt=";

    @Inject
    RecordsApiClient recordsApi;

    /** One rule or webhook. */
    private record Key(String model, long id) {}

    /** A rule or webhook as one of its changes left it; a delete keeps the last state it had. */
    private static final class Version {
        final long version;
        final String event;
        final JsonNode data;
        /** The parsed definition (EventRuleDefinition or WebhookDefinition), made once when needed. */
        Object definition;

        Version(long version, String event, JsonNode data) {
            this.version = version;
            this.event = event;
            this.data = data;
        }
    }

    // guarded by this
    private boolean read;
    /** Every change of a version at or below this one has been read. */
    private long complete;

    private final Map<Key, List<Version>> versions = new HashMap<>();
    /** The rules and webhooks as listed when the history was first read (version unknown, 0 here). */
    private final Map<Key, Version> listed = new HashMap<>();

    /**
     * The latest secret read for each webhook. records-api leaves a webhook's secret out of its
     * change events (docs/secrets.md), so the history has none: every version of a webhook signs
     * with the secret the webhook has now, which is what its receiver checks against.
     */
    private final Map<Long, String> secrets = new HashMap<>();

    private final Map<Long, RuleIndex> indexes = new LinkedHashMap<>(INDEXES_KEPT, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, RuleIndex> eldest) {
            return size() > INDEXES_KEPT;
        }
    };

    /**
     * The rules in force at {@code version}. Reads from records-api what it has not read yet;
     * throws when records-api does not answer (the caller retries: nothing is matched meanwhile).
     */
    public synchronized RuleIndex at(long version) throws RecordsApiException {
        if (!read) {
            readAll();
        }
        if (version > complete) {
            readAfter(complete, false);
            if (version > complete) {
                // records-api has no change of that version: an event of another database, or a
                // version row set by hand. Its rules are unknowable; the latest are the best guess.
                LOG.warnf(
                        "A change names rules version %d, but records-api's change log goes up to %d;"
                                + " matching it against version %d",
                        version, complete, complete);
                version = complete;
            }
        }
        RuleIndex index = indexes.get(version);
        if (index == null) {
            index = build(version);
            indexes.put(version, index);
        }
        return index;
    }

    /** The highest version read (for the health check and tests). */
    public synchronized long readUpTo() {
        return complete;
    }

    private void readAll() throws RecordsApiException {
        // the lists first, then the history: a rule created in between has its creation in the
        // history, so it is never taken for one that existed all along
        Map<Key, Version> current = new HashMap<>();
        for (String model : List.of(EventRuleDefinition.WEBHOOK_MODEL, RuleCache.EVENT_RULE_MODEL)) {
            for (JsonNode object : recordsApi.list(RuleCache.PATHS.get(model))) {
                current.put(new Key(model, object.path("id").asLong()), new Version(0, ChangeEvent.UPDATED, object));
                if (model.equals(EventRuleDefinition.WEBHOOK_MODEL) && object.hasNonNull("secret")) {
                    secrets.put(
                            object.path("id").asLong(), object.path("secret").asText());
                }
            }
        }
        listed.clear();
        listed.putAll(current);
        versions.clear();
        complete = 0;
        readAfter(0, true);
        read = true;
        LOG.infof(
                "Read the history of event rules and webhooks up to version %d (%d objects listed, %d with changes)",
                complete, listed.size(), versions.size());
    }

    /**
     * Reads the rule changes after version {@code after}. On the first read the listing just
     * made gives each existing webhook's current secret; later changes of a webhook may have
     * rotated it, and it is read again.
     */
    private void readAfter(long after, boolean first) throws RecordsApiException {
        long highest = after;
        for (JsonNode node : recordsApi.list(HISTORY_PATH + after)) {
            if (node.has("error")) {
                // a change records-api cannot make an event of (see its ChangeEventsResource): its
                // version is read, its content stays unknown; the object's other versions stand
                LOG.warnf(
                        "Change of %s at rules version %s has no event (%s); left out of the rules' history",
                        node.path("model").asText(),
                        node.path("rules_version").asText(),
                        node.path("error").asText());
                highest = Math.max(highest, node.path("rules_version").asLong());
                continue;
            }
            ChangeEvent event;
            try {
                event = Json.MAPPER.treeToValue(node, ChangeEvent.class);
            } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException e) {
                throw new RecordsApiException("records-api sent a rule change that is not a change event: " + node, e);
            }
            if (event.changeId() == null || event.model() == null || event.rulesVersion() == null) {
                throw new RecordsApiException("records-api sent a rule change without id, model or version: " + node);
            }
            Version version = new Version(event.rulesVersion(), event.event(), event.data());
            if (event.truncated()) {
                // too large for the topic (a huge template, say): the object as it is now is the best
                // record of it that records-api still has
                version = new Version(
                        event.rulesVersion(),
                        event.event(),
                        recordsApi
                                .get(RuleCache.PATHS.get(event.model()) + event.objectId() + "/")
                                .orElse(null));
            }
            if (EventRuleDefinition.WEBHOOK_MODEL.equals(event.model())
                    && !ChangeEvent.DELETED.equals(event.event())
                    && (event.data() == null || !event.data().has("secret"))
                    && !(first && secrets.containsKey(event.objectId()))) {
                readSecret(event.objectId());
            }
            List<Version> list =
                    versions.computeIfAbsent(new Key(event.model(), event.objectId()), k -> new ArrayList<>());
            list.add(version);
            list.sort((a, b) -> Long.compare(a.version, b.version));
            highest = Math.max(highest, event.rulesVersion());
        }
        if (highest > complete) {
            complete = highest;
        }
    }

    /**
     * Reads a webhook's current secret (after a change of it, which may have rotated it). A
     * webhook deleted since keeps the secret last read, if any.
     */
    private void readSecret(long webhookId) throws RecordsApiException {
        Optional<JsonNode> webhook =
                recordsApi.get(RuleCache.PATHS.get(EventRuleDefinition.WEBHOOK_MODEL) + webhookId + "/");
        if (webhook.isEmpty() || !webhook.get().hasNonNull("secret")) {
            return;
        }
        String secret = webhook.get().path("secret").asText();
        if (!secret.equals(secrets.put(webhookId, secret))) {
            // definitions made with the old secret
            indexes.clear();
            Key key = new Key(EventRuleDefinition.WEBHOOK_MODEL, webhookId);
            versions.getOrDefault(key, List.of()).forEach(v -> v.definition = null);
            Version first = listed.get(key);
            if (first != null) {
                first.definition = null;
            }
        }
    }

    /** The index of the rules and webhooks at {@code version}. */
    private RuleIndex build(long version) {
        Map<Long, WebhookDefinition> webhooks = new HashMap<>();
        List<EventRuleDefinition> rules = new ArrayList<>();
        Set<Key> keys = new HashSet<>(listed.keySet());
        keys.addAll(versions.keySet());
        for (Key key : keys) {
            Version state = stateAt(key, version);
            if (state == null || state.data == null || state.data.isNull()) {
                continue;
            }
            Object definition = definition(key, state);
            if (definition instanceof WebhookDefinition webhook) {
                webhooks.put(webhook.id(), webhook);
            } else if (definition instanceof EventRuleDefinition rule) {
                rules.add(rule);
            }
        }
        return RuleIndex.of(rules, webhooks);
    }

    /** What the object's history says it was at {@code version} (null: it did not exist). */
    private Version stateAt(Key key, long version) {
        List<Version> changes = versions.get(key);
        if (changes == null || changes.isEmpty()) {
            return listed.get(key);
        }
        Version last = null;
        for (Version change : changes) {
            if (change.version > version) {
                break;
            }
            last = change;
        }
        if (last != null) {
            return ChangeEvent.DELETED.equals(last.event) ? null : last;
        }
        // every change of it came after the version: it did not exist yet, or its older changes
        // were purged (then the first one left is the nearest record: a delete's data is the last
        // state it had)
        Version first = changes.get(0);
        return ChangeEvent.CREATED.equals(first.event) ? null : first;
    }

    private Object definition(Key key, Version state) {
        if (state.definition == null) {
            try {
                JsonNode data = state.data;
                if (EventRuleDefinition.WEBHOOK_MODEL.equals(key.model()) && !data.has("secret")) {
                    ObjectNode withSecret = data.deepCopy();
                    String secret = secrets.get(key.id());
                    if (secret == null) {
                        LOG.warnf("webhook %d: its secret is unknown (deleted before it was read); unsigned", key.id());
                    }
                    withSecret.put("secret", secret == null ? "" : secret);
                    data = withSecret;
                }
                Representation object = new Representation(data);
                state.definition = RuleCache.EVENT_RULE_MODEL.equals(key.model())
                        ? EventRuleDefinition.from(object)
                        : WebhookDefinition.from(object);
            } catch (Representation.Incomplete e) {
                LOG.warnf("%s %d at one version lacks a field (%s); left out", key.model(), key.id(), e.getMessage());
                state.definition = Boolean.FALSE;
            }
        }
        return state.definition;
    }
}
