-- The version of the event rules and webhooks, stamped on every change: a consumer matches a
-- change against the rules as they were at its version (webhook-dispatcher does), not as they are
-- when it gets to the change. Every change of an event rule or webhook moves the version on by one
-- in its own transaction, holding this row's lock until it commits, so versions are taken in
-- commit order: whoever sees version n sees every change of version n or lower.
create table core_rules_version (
    singleton  boolean primary key default true check (singleton),
    version    bigint not null
);
insert into core_rules_version (version) values (0);

-- The version a change was recorded at (for a change of a rule or webhook: the version it made).
-- Null for changes recorded before versions existed.
alter table core_objectchange add column rules_version bigint;
-- The rule and webhook changes by version (what a consumer reads to learn the rules' history).
create index core_objectchange_rules_version on core_objectchange (rules_version)
    where changed_object_type in ('extras.eventrule', 'extras.webhook');
