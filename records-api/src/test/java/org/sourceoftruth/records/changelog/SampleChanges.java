package org.sourceoftruth.records.changelog;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.UUID;
import org.sourceoftruth.model.Json;

/** Site changes as the model engine would report them, with a version number in the data. */
final class SampleChanges {

    static final String SITE = "dcim.site";

    private SampleChanges() {}

    static ChangeRecord change(UUID requestId, ChangeAction action, long siteId, int version) {
        return new ChangeRecord(
                null,
                "tester",
                requestId,
                action,
                SITE,
                siteId,
                "site-" + siteId,
                "",
                action == ChangeAction.CREATE ? null : snapshot(siteId, version - 1),
                action == ChangeAction.DELETE ? null : snapshot(siteId, version),
                representation(siteId, version));
    }

    /** The REST form the event carries (relative URL, as NetBox sends it to webhooks). */
    static ObjectNode representation(long siteId, int version) {
        ObjectNode site = Json.MAPPER.createObjectNode();
        site.put("id", siteId);
        site.put("url", "/api/dcim/sites/" + siteId + "/");
        site.put("name", "site-" + siteId);
        site.put("version", version);
        return site;
    }

    /** NetBox's snapshot form: model fields, no id, no URL. */
    static ObjectNode snapshot(long siteId, int version) {
        ObjectNode site = Json.MAPPER.createObjectNode();
        site.put("name", "site-" + siteId);
        site.put("version", version);
        return site;
    }
}
