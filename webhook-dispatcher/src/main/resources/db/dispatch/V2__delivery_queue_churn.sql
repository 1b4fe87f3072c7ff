-- Every delivery row is written three times (queued, leased, finished). Measured with 20 rules
-- at 1,000 deliveries/s on a PostgreSQL without autovacuum: the claim query cost 25 ms a call,
-- scanning ~50,000 dead entries of the due-index through a bitmap heap scan, and each of the
-- three row versions carried the whole rendered request (~1.7 kB), far below the size at which
-- PostgreSQL moves a value out of line (2 kB rows).

-- The rendered headers and body never change after the insert: in a table of their own they are
-- written once, and the delivery row that the claim and the outcome update copy is ~300 bytes.
-- The method and URL stay (short; a null URL marks a request that could not be rendered).
create table rendered_request (
    delivery_id  bigint primary key references delivery(id) on delete cascade,
    headers      jsonb not null,
    body         text
);
insert into rendered_request(delivery_id, headers, body)
select id, coalesce(request_headers, '[]'::jsonb), request_body from delivery where request_url is not null;
alter table delivery drop column request_headers, drop column request_body;

-- Due rows in claim order (next_attempt_at, id): the claim's ORDER BY ... LIMIT then reads the
-- index in order and stops after enough rows, and a plain index scan marks the entries of rows
-- that are no longer queued as dead on the way, so later claims skip them even when no vacuum
-- has run yet.
drop index delivery_due;
create index delivery_due on delivery(next_attempt_at, id) where state = 'queued';

-- With statistics taken while the queue was empty, the planner served "state = 'queued'" from
-- this index, scanning every queued row on each claim (seen: 90 ms a claim with 8,000 queued).
-- The due-index above serves the queued rows; a state filter of the admin API reads the
-- primary key backwards (newest first), as its pages are ordered.
drop index delivery_state;

-- Room on each page for the lease update (no indexed column changes) to stay on the page as a
-- heap-only tuple; and vacuum after a few thousand dead rows rather than 20 % of the table.
alter table delivery set (fillfactor = 80,
    autovacuum_vacuum_scale_factor = 0.0, autovacuum_vacuum_threshold = 5000,
    autovacuum_vacuum_insert_scale_factor = 0.0, autovacuum_vacuum_insert_threshold = 5000,
    autovacuum_analyze_scale_factor = 0.0, autovacuum_analyze_threshold = 5000);
