package org.sourceoftruth.dispatcher.admin;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.SQLException;
import org.sourceoftruth.dispatcher.delivery.DeliveryAdmin;
import org.sourceoftruth.dispatcher.delivery.DeliveryWorker;

/**
 * NetBox's task actions (requeue, enqueue, stop, delete), shared by the admin API and the admin
 * pages. The dispatcher's store makes each transition, so the workers keep owning the delivery
 * state; refusals are NetBox-style errors (404 unknown task, 409 not requeueable).
 */
@ApplicationScoped
public class TaskActions {

    @Inject
    DeliveryAdmin deliveries;

    @Inject
    DeliveryWorker worker;

    @Inject
    BackgroundTaskQueries queries;

    /** failed → queued, a new round of attempts. */
    public void requeue(long taskId) throws SQLException {
        switch (deliveries.requeue(taskId)) {
            case REQUEUED -> worker.wake();
            case NOT_FOUND -> throw BackgroundTaskResource.notFound();
            case NOT_FAILED ->
                throw ApiException.detail(
                        409,
                        "Only failed tasks can be requeued; task " + taskId + " is "
                                + queries.get(taskId, "")
                                        .map(t -> t.get("delivery_state"))
                                        .orElse("gone") + ".");
            case NOT_RENDERED ->
                throw ApiException.detail(
                        409,
                        "Task " + taskId + " failed before its request could "
                                + "be built; fix the webhook, and the next change will be delivered.");
        }
    }

    /** A scheduled retry is made due now; a failed task is requeued (RQ enqueues it again). */
    public void enqueue(long taskId) throws SQLException {
        switch (deliveries.enqueueNow(taskId)) {
            case DONE -> worker.wake();
            case NOT_FOUND -> throw BackgroundTaskResource.notFound();
            // failed (or being sent): requeue's rules and refusals apply
            case WRONG_STATE -> requeue(taskId);
        }
    }

    /** @return false when the task is no longer queued (NetBox then answers 204: nothing stopped) */
    public boolean stop(long taskId, String username) throws SQLException {
        return switch (deliveries.stop(taskId, "Stopped by " + username + " before it was delivered.")) {
            case DONE -> true;
            case NOT_FOUND -> throw BackgroundTaskResource.notFound();
            case WRONG_STATE -> false;
        };
    }

    public void delete(long taskId) throws SQLException {
        if (deliveries.delete(taskId) == DeliveryAdmin.ActionResult.NOT_FOUND) {
            throw BackgroundTaskResource.notFound();
        }
    }
}
