-- Wakes the outbox relay when change-log rows are committed. PostgreSQL delivers a NOTIFY only
-- when (and if) the writing transaction commits, and collapses identical notifications of one
-- transaction into one, so a statement-level trigger costs one message per commit at most.
-- The payload stays empty: the relay reads the rows themselves, in id order.
create function core_objectchange_notify() returns trigger
language plpgsql as $$
begin
    perform pg_notify('object_changes', '');
    return null;
end;
$$;

create trigger core_objectchange_notify
    after insert on core_objectchange
    for each statement execute function core_objectchange_notify();

