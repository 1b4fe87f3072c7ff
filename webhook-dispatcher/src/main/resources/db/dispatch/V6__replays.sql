-- Replays: an operator re-delivers past changes (one change, or a time range, optionally of some
-- object types) to one webhook, through the same matching, rendering, signing, per-object order
-- and delivery records as the change stream. The changes come from records-api's change log
-- (GET /api/core/change-events/), a page at a time; the page's deliveries and the replay's
-- progress are written in one transaction, so a replay that a dying process leaves is taken up
-- where it stood by another one (its lease).
create table replay (
    id                bigint generated always as identity primary key,
    state             varchar(10) not null check (state in ('running', 'finished', 'cancelled', 'failed')),
    webhook_id        bigint not null,
    webhook_name      varchar(150) not null,
    change_id         uuid,
    since             timestamptz,
    until             timestamptz,
    object_types      text[] not null default '{}',
    -- deliveries recorded per second at most
    rate              integer not null check (rate > 0),
    -- the last change-log sequence read
    position          bigint not null default 0,
    changes_read      bigint not null default 0,
    deliveries        bigint not null default 0,
    error             text,
    created           timestamptz not null default now(),
    created_by        varchar(150),
    finished_at       timestamptz,
    lease_owner       varchar(100),
    lease_expires_at  timestamptz
);
create index replay_running on replay(id) where state = 'running';

-- A replayed change gets a delivery of its own, next to the change stream's (if it had one).
alter table delivery add column replay_id bigint references replay(id);
alter table delivery drop constraint delivery_change_id_event_rule_id_key;
create unique index delivery_change_rule on delivery(change_id, event_rule_id) where replay_id is null;
create unique index delivery_change_rule_replay on delivery(change_id, event_rule_id, replay_id)
    where replay_id is not null;
create index delivery_replay on delivery(replay_id) where replay_id is not null;
