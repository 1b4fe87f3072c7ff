package org.sourceoftruth.dispatcher.delivery;

import org.sourceoftruth.dispatcher.rules.ActiveRule;
import org.sourceoftruth.dispatcher.template.RenderedRequest;
import org.sourceoftruth.model.ChangeEvent;

/**
 * A delivery to record for a change event and a matching rule.
 *
 * @param request          null when it could not be built
 * @param preparationError why the request could not be built; the delivery is recorded as failed
 */
public record NewDelivery(ChangeEvent event, ActiveRule rule, RenderedRequest request, String preparationError) {
}
