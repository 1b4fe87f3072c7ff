-- webhook-dispatcher's own state, in schema "dispatch" (records-api owns the public schema).

-- Idempotent consumer: one row per change event whose deliveries were recorded. The row and the
-- deliveries are written in one transaction, so a re-delivered event finds its row and is skipped.
create table processed_change (
    change_id     uuid primary key,
    model         varchar(100) not null,
    object_id     bigint not null,
    event         varchar(20) not null,
    deliveries    integer not null,
    processed_at  timestamptz not null default now()
);
create index processed_change_time on processed_change(processed_at);

-- One webhook delivery: one (change event, event rule) pair. The rendered request is stored so
-- retries and manual requeues send the same bytes (and signature) and the admin view shows them.
create table delivery (
    id                 bigint generated always as identity primary key,
    state              varchar(10) not null check (state in ('queued', 'succeeded', 'failed')),
    change_id          uuid not null,
    event              varchar(20) not null,
    model              varchar(100) not null,
    object_id          bigint not null,
    request_id         varchar(64),
    username           varchar(150),
    event_rule_id      bigint not null,
    event_rule_name    varchar(150) not null,
    webhook_id         bigint not null,
    webhook_name       varchar(150) not null,
    -- the rendered request; null when it could not be rendered (then state is failed)
    request_method     varchar(10),
    request_url        text,
    request_headers    jsonb,
    request_body       text,
    target_host        varchar(300),
    ssl_verification   boolean not null default true,
    ca_file_path       varchar(4096),
    -- progress: attempts of the current round (a manual requeue starts a new round)
    round              integer not null default 1,
    attempts           integer not null default 0,
    next_attempt_at    timestamptz not null default now(),
    lease_owner        varchar(100),
    lease_expires_at   timestamptz,
    last_status        integer,
    last_error         text,
    response_excerpt   text,
    created            timestamptz not null default now(),
    first_attempt_at   timestamptz,
    last_attempt_at    timestamptz,
    completed_at       timestamptz,
    duration_ms        bigint,
    unique (change_id, event_rule_id)
);
create index delivery_due on delivery(next_attempt_at) where state = 'queued';
create index delivery_state on delivery(state);
create index delivery_webhook on delivery(webhook_id);
create index delivery_event_rule on delivery(event_rule_id);
create index delivery_request on delivery(request_id);
create index delivery_model on delivery(model, object_id);
create index delivery_created on delivery(created);

-- Every HTTP attempt of a delivery.
create table delivery_attempt (
    id                bigint generated always as identity primary key,
    delivery_id       bigint not null references delivery(id) on delete cascade,
    round             integer not null,
    attempt           integer not null,
    started_at        timestamptz not null,
    duration_ms       bigint not null,
    status_code       integer,
    error             text,
    response_excerpt  text
);
create index delivery_attempt_delivery on delivery_attempt(delivery_id);
