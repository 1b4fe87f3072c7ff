package org.sourceoftruth.dispatcher.delivery;

import org.sourceoftruth.dispatcher.rules.ActiveRule;
import org.sourceoftruth.dispatcher.template.RenderedRequest;
import org.sourceoftruth.model.ChangeEvent;

/**
 * A delivery to record for a change event and a matching rule.
 *
 * @param request          null when it could not be built, or is still to be rendered
 * @param preparationError why the request could not be built; the delivery is recorded as failed
 */
public record NewDelivery(ChangeEvent event, ActiveRule rule, RenderedRequest request, String preparationError) {

    /** A delivery whose request the rendering threads build later from the stored event. */
    public static NewDelivery toRender(ChangeEvent event, ActiveRule rule) {
        return new NewDelivery(event, rule, null, null);
    }

    public boolean awaitsRendering() {
        return request == null && preparationError == null;
    }
}
