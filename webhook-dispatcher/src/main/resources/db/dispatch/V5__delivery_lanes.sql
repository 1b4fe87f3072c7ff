-- Per-object order: the deliveries of one object to one webhook (a "lane") are sent one at a
-- time, in the order their changes were committed. Of a lane's unfinished deliveries only the
-- oldest is due; the others wait (waiting = true, out of the due-index) until it has succeeded
-- or finally failed, when the one after it is made due in the same transaction.
--
-- One row per lane, locked (in key order) by every transaction that adds deliveries to the lane
-- or finishes one of them, so that "is anything of this lane unfinished?" and "which one comes
-- next?" are always answered on the lane's committed state. last_sequence numbers the lane's
-- deliveries 1, 2, 3, ...: sent as X-Hook-Sequence, a receiver can tell a gap from a repeat.
create table delivery_lane (
    webhook_id     bigint not null,
    model          varchar(100) not null,
    object_id      bigint not null,
    last_sequence  bigint not null default 0,
    primary key (webhook_id, model, object_id)
);

alter table delivery
    add column waiting boolean not null default false,
    -- the delivery's identity, sent with every attempt: stable across retries and re-sends
    add column delivery_uuid uuid,
    add column lane_sequence bigint,
    -- the change's place in the change log (the event's "sequence"), for the admin views
    add column change_sequence bigint;

-- Deliveries recorded before lanes existed keep sending as they were queued; they get an identity
-- of their own and their lanes a row, so that new deliveries of those objects wait for them.
update delivery set delivery_uuid = gen_random_uuid() where delivery_uuid is null;
insert into delivery_lane (webhook_id, model, object_id)
select distinct webhook_id, model, object_id from delivery where state = 'queued'
on conflict do nothing;

-- Only a lane's head is due: waiting rows stay out of the claim's index.
drop index delivery_due;
create index delivery_due on delivery(next_attempt_at, id) where state = 'queued' and not waiting;
-- A lane's unfinished deliveries, oldest first (is the lane busy, which one is next).
create index delivery_lane_open on delivery(webhook_id, model, object_id, id) where state = 'queued';
create index delivery_uuid on delivery(delivery_uuid);
