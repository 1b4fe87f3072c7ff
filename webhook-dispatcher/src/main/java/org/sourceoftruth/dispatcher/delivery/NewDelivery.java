package org.sourceoftruth.dispatcher.delivery;

import org.sourceoftruth.dispatcher.rules.ActiveRule;
import org.sourceoftruth.dispatcher.template.RenderedRequest;
import org.sourceoftruth.model.ChangeEvent;

/**
 * A delivery to record for a change event and a matching rule.
 *
 * @param request          null when it could not be built, or is still to be rendered
 * @param preparationError why the request could not be built; the delivery is recorded as failed
 * @param replayId         the replay it is part of; null for the change stream's own delivery
 */
public record NewDelivery(
        ChangeEvent event, ActiveRule rule, RenderedRequest request, String preparationError, Long replayId) {

    /** A delivery of the change stream. */
    public NewDelivery(ChangeEvent event, ActiveRule rule, RenderedRequest request, String preparationError) {
        this(event, rule, request, preparationError, null);
    }

    /** A delivery whose request the rendering threads build later from the stored event. */
    public static NewDelivery toRender(ChangeEvent event, ActiveRule rule) {
        return new NewDelivery(event, rule, null, null);
    }

    /** This delivery, as part of a replay. */
    public NewDelivery inReplay(long replay) {
        return new NewDelivery(event, rule, request, preparationError, replay);
    }

    public boolean awaitsRendering() {
        return request == null && preparationError == null;
    }
}
