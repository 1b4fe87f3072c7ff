package org.sourceoftruth.dispatcher.admin;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.sourceoftruth.dispatcher.delivery.DeliveryAdmin;
import org.sourceoftruth.dispatcher.delivery.DeliveryWorker;

import java.sql.SQLException;

/**
 * NetBox's task actions other than requeue ({@link TaskRequeue}): enqueue, stop and delete. The
 * dispatcher's store makes each transition, so the workers keep owning the delivery state.
 */
@ApplicationScoped
public class TaskActions {

    @Inject
    DeliveryAdmin deliveries;
    @Inject
    DeliveryWorker worker;
    @Inject
    TaskRequeue requeue;

    /** A scheduled retry is made due now; a failed task is requeued (RQ enqueues it again). */
    public void enqueue(long taskId) throws SQLException {
        switch (deliveries.enqueueNow(taskId)) {
            case DONE -> worker.wake();
            case NOT_FOUND -> throw BackgroundTaskResource.notFound();
            // failed (or being sent): requeue's rules and refusals apply
            case WRONG_STATE -> requeue.requeue(taskId);
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
