-- Templates are rendered off the Kafka consumer (issue #15, defect 6): the consumer records a
-- delivery whose webhook has template markup as queued, without a request (request_url null,
-- target_host '(rendering)'), and keeps here the change event it is rendered from. A delivery
-- worker that claims such a row has it rendered on the rendering threads, which store the
-- request (or fail the delivery with the reason) and delete this row. Claims and leases work as
-- for sending, so a row whose renderer died is rendered by another worker after its lease.
create table render_input (
    delivery_id  bigint primary key references delivery(id) on delete cascade,
    event        jsonb not null
);
