package org.sourceoftruth.dispatcher.admin;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.sourceoftruth.dispatcher.delivery.DeliveryAdmin;
import org.sourceoftruth.dispatcher.delivery.DeliveryWorker;

import java.sql.SQLException;

/**
 * The requeue transition (failed → queued, new round of attempts) shared by the admin API and
 * the admin pages; refusals are NetBox-style errors (404 unknown task, 409 not requeueable).
 */
@ApplicationScoped
public class TaskRequeue {

    @Inject
    DeliveryAdmin deliveries;
    @Inject
    DeliveryWorker worker;
    @Inject
    BackgroundTaskQueries queries;

    public void requeue(long taskId) throws SQLException {
        switch (deliveries.requeue(taskId)) {
            case REQUEUED -> worker.wake();
            case NOT_FOUND -> throw BackgroundTaskResource.notFound();
            case NOT_FAILED -> throw ApiException.detail(409, "Only failed tasks can be requeued; task " + taskId
                    + " is " + queries.get(taskId, "").map(t -> t.get("delivery_state")).orElse("gone") + ".");
            case NOT_RENDERED -> throw ApiException.detail(409, "Task " + taskId + " failed before its request could "
                    + "be built; fix the webhook, and the next change will be delivered.");
        }
    }
}
