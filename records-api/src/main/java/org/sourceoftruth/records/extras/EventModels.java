package org.sourceoftruth.records.extras;

import static org.sourceoftruth.records.model.Fields.*;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.sourceoftruth.model.conditions.Conditions;
import org.sourceoftruth.model.template.WebhookHeaders;
import org.sourceoftruth.model.template.WebhookTemplates;
import org.sourceoftruth.records.model.ChoiceSet;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.model.ModelDefinition;
import org.sourceoftruth.records.model.ModelRegistry;
import org.sourceoftruth.records.model.Row;

/**
 * extras: webhooks and event rules, read by webhook-dispatcher (which runs the webhook rules; the
 * notification rules are run by records-api itself, see {@link EventRuleNotifications}). Templates and conditions are
 * checked at save time with the same code the dispatcher renders and evaluates with.
 */
@ApplicationScoped
public class EventModels implements ModelDefinition {
    public static final ChoiceSet HTTP_METHOD =
            ChoiceSet.of("GET", "GET", "POST", "POST", "PUT", "PUT", "PATCH", "PATCH", "DELETE", "DELETE");
    public static final ChoiceSet ACTION_TYPE =
            ChoiceSet.of("webhook", "Webhook", "script", "Script", "notification", "Notification");
    /** Why an event rule with action type script is refused: no script runner exists here (see ScriptRun). */
    static final String SCRIPT_ACTIONS_REFUSED =
            "Event rules cannot run scripts here: no script runner exists on" + " this server.";
    /** The object each action type acts with. */
    static final Map<String, String> ACTION_OBJECT_TYPES =
            Map.of("webhook", "extras.webhook", "script", "extras.script", "notification", "extras.notificationgroup");

    static final Set<String> EVENT_TYPES = Set.of(
            "object_created",
            "object_updated",
            "object_deleted",
            "job_started",
            "job_completed",
            "job_failed",
            "job_errored");

    @Inject
    Instance<ModelRegistry> registry;

    @Override
    public List<Model> models() {
        Model webhook = Model.of("extras", "webhooks", "webhook")
                .fields(
                        str("name").required().max(150).unique(),
                        str("description").max(200),
                        str("payload_url")
                                .required()
                                .max(500)
                                .help(
                                        "This URL will be called using the HTTP method defined when the webhook is called."
                                                + " Jinja2 template processing is supported with the same context as the request body."),
                        plainChoice("http_method", HTTP_METHOD).dflt("POST"),
                        str("http_content_type").max(100).dflt("application/json"),
                        str("additional_headers"),
                        str("body_template"),
                        // shown by the API (as NetBox's), never in change records, events or exports
                        str("secret").max(255).sensitive(),
                        bool("ssl_verification").dflt(true),
                        str("ca_file_path").max(4096).nullable().dflt(null))
                .standardTail()
                .validator(EventModels::webhookRules)
                .ordering("t.name")
                .search("t.name", "t.description", "t.payload_url")
                .brief("name", "description");

        Model eventRule = Model.of("extras", "event-rules", "event rule")
                .fields(
                        stringList("object_types").required().objectTypeIds(),
                        str("name").required().max(150).unique(),
                        bool("enabled").dflt(true),
                        stringList("event_types").required(),
                        json("conditions").nullable(),
                        choice("action_type", ACTION_TYPE).dflt("webhook"),
                        genericFk(
                                        "action_object",
                                        "action_object_type",
                                        "action_object_id",
                                        List.of("extras.webhook", "extras.script", "extras.notificationgroup"))
                                .required()
                                .cascade(),
                        json("action_data").nullable(),
                        str("description").max(200))
                .standardTail()
                .validator(this::eventRuleRules)
                .ordering("t.name")
                .search("t.name", "t.description")
                .brief("name", "description");
        return List.of(webhook, eventRule);
    }

    private static void webhookRules(Row row, Map<String, List<String>> errors) {
        String url = row.str("payload_url");
        if (url != null && !url.contains("{{") && !url.matches("(?i)^https?://[^\\s/$.?#][^\\s]*$")) {
            add(errors, "payload_url", "Enter a valid URL (http or https).");
        }
        for (String field : List.of("payload_url", "additional_headers", "body_template")) {
            String text = row.str(field);
            if (text != null && !text.isEmpty()) {
                WebhookTemplates.validate(text)
                        .ifPresent(problem -> add(errors, field, "Invalid template: " + problem));
            }
        }
        WebhookHeaders.problems(row.str("additional_headers"))
                .forEach(problem -> add(errors, "additional_headers", problem));
        if (row.get("ca_file_path") != null && Boolean.FALSE.equals(row.get("ssl_verification"))) {
            add(errors, "ca_file_path", "Do not specify a CA certificate file if SSL verification is disabled.");
        }
    }

    @SuppressWarnings("unchecked")
    private void eventRuleRules(Row row, Map<String, List<String>> errors) {
        if (row.get("object_types") instanceof List<?> types) {
            for (Object t : (List<Object>) types) {
                if (!registry.get()
                        .byContentType(String.valueOf(t))
                        .map(Model::hasEventRules)
                        .orElse(false)) {
                    add(errors, "object_types", "Invalid content type: " + t);
                }
            }
        }
        if (row.get("event_types") instanceof List<?> events) {
            if (events.isEmpty()) {
                add(errors, "event_types", "At least one event type must be selected.");
            }
            for (Object e : events) {
                if (!EVENT_TYPES.contains(String.valueOf(e))) {
                    add(errors, "event_types", "\"" + e + "\" is not a valid choice.");
                }
            }
        }
        Object conditions = row.get("conditions");
        if (conditions instanceof JsonNode node && !node.isNull()) {
            Conditions.validate(node).ifPresent(problem -> add(errors, "conditions", problem));
        }
        String actionType = row.str("action_type");
        if ("webhook".equals(actionType) && row.get("action_object_id") == null) {
            add(errors, "action_object_id", "A webhook must be selected for a webhook action.");
        }
        if ("notification".equals(actionType) && row.get("action_object_id") == null) {
            add(errors, "action_object_id", "A notification group must be selected for a notification action.");
        }
        if ("script".equals(actionType)) {
            // NetBox accepts any existing script and queues a run on each event; no script runner
            // exists here, so such a rule could never do what it says: refused rather than kept idle
            add(errors, "action_type", SCRIPT_ACTIONS_REFUSED);
        }
        String expected = ACTION_OBJECT_TYPES.get(actionType);
        String actual = row.str("action_object_type");
        if (expected != null && actual != null && !expected.equals(actual)) {
            add(errors, "action_object_type", "A " + actionType + " action needs an object of type " + expected + ".");
        }
    }

    private static void add(Map<String, List<String>> errors, String field, String message) {
        errors.computeIfAbsent(field, k -> new ArrayList<>()).add(message);
    }
}
