package org.sourceoftruth.records.engine.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.sourceoftruth.records.changelog.ChangeAction;
import org.sourceoftruth.records.changelog.ChangeRecord;
import org.sourceoftruth.records.model.Field;
import org.sourceoftruth.records.model.Model;
import org.sourceoftruth.records.web.ApiException;
import org.sourceoftruth.records.web.RequestContext;

/** The change records of a request's writes: who, which request, what changed and how. */
@ApplicationScoped
public class ChangeRecordFactory {
    /** NetBox's limit on a changelog message. */
    private static final int MAX_MESSAGE = 200;

    @Inject
    RequestContext request;

    /**
     * The record of one object's change by the caller of this request.
     *
     * @param pre  the snapshot before the change (null on create)
     * @param post the snapshot after it (null on delete)
     * @param data the object's representation, sensitive fields removed ({@link #redacted})
     */
    public ChangeRecord entry(
            Model model,
            ChangeAction action,
            long id,
            String repr,
            JsonNode pre,
            JsonNode post,
            JsonNode data,
            String message) {
        if (message != null && message.length() > MAX_MESSAGE) {
            throw ApiException.field("changelog_message", "Ensure this field has no more than 200 characters.");
        }
        RequestContext.Caller caller = request.caller();
        return new ChangeRecord(
                caller == null ? null : caller.userId(),
                caller == null ? "" : caller.username(),
                request.requestId(),
                action,
                model.contentType(),
                id,
                repr,
                message,
                pre,
                post,
                data,
                null,
                null,
                request.method(),
                request.path());
    }

    /**
     * A rendered object without the model's {@link Field#isSensitive() sensitive} fields (for the
     * change log and events): a copy without them when the model has some, else the object itself,
     * which the caller must then leave as it is until the change is recorded. (The copy was a tenth
     * of a bulk create's time.)
     */
    public static ObjectNode redacted(Model model, ObjectNode rendered) {
        ObjectNode copy = null;
        for (Field f : model.fields()) {
            if (f.isSensitive() && rendered.has(f.name)) {
                copy = copy == null ? rendered.deepCopy() : copy;
                copy.remove(f.name);
            }
        }
        return copy == null ? rendered : copy;
    }
}
