-- One row per running dispatcher process (NetBox's background workers), kept fresh by its
-- heartbeat and removed when it stops; a row whose heartbeat is stale belongs to a dead process.
create table worker (
    name                  varchar(100) primary key,
    hostname              varchar(255),
    pid                   bigint not null,
    birth_date            timestamptz not null,
    last_heartbeat        timestamptz not null,
    state                 varchar(10) not null,
    successful_job_count  bigint not null default 0,
    failed_job_count      bigint not null default 0,
    total_working_time_ms bigint not null default 0
);
