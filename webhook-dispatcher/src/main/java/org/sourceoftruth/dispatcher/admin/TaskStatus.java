package org.sourceoftruth.dispatcher.admin;

import java.util.List;

/**
 * RQ's job statuses (as NetBox's background tasks show them) derived from a delivery row: the
 * dispatcher's own states stay queued / succeeded / failed, and the finer RQ view is computed.
 */
final class TaskStatus {

    /** NetBox's queue for webhooks (RQ_QUEUE_DEFAULT): every delivery is a task of it. */
    static final String QUEUE = "default";
    /** NetBox's queues in settings order (their "index"): high, default, low. */
    static final List<String> QUEUES = List.of("high", QUEUE, "low");

    /** Every RQ status, in the order of BackgroundTaskSerializer's is_* flags. */
    static final List<String> RQ_STATUSES =
            List.of("finished", "queued", "failed", "started", "deferred", "canceled", "scheduled", "stopped");

    /**
     * The RQ status of a dispatch.delivery row: leased and its lease running = being sent
     * (started); waiting for a later retry = scheduled (RQ puts retries with a delay there);
     * waiting for the delivery before it of its object to its webhook = deferred (RQ's status of a
     * job waiting for the job it depends on).
     */
    static final String SQL = """
            (case state when 'succeeded' then 'finished' when 'failed' then 'failed'
                  else case when waiting then 'deferred'
                            when lease_owner is not null and lease_expires_at > now() then 'started'
                            when next_attempt_at > now() then 'scheduled'
                            else 'queued' end end)""";

    private TaskStatus() {}
}
