-- The relay's NOTIFY now says where the committed rows start: the lowest id the statement
-- inserted. The relay reads unpublished rows from a lower bound instead of from the start of the
-- table (see OutboxStore): published rows leave dead entries at the low end of the
-- "unpublished" index until VACUUM, and a read from the start walked them all, 0.7 ms per
-- change at a few hundred changes a second. A commit of rows below the relay's bound (a
-- transaction that took its ids before others committed) lowers the bound through this payload.
create or replace function core_objectchange_notify() returns trigger
language plpgsql as $$
begin
    perform pg_notify('object_changes', (select min(id)::text from new_rows));
    return null;
end;
$$;

drop trigger core_objectchange_notify on core_objectchange;
create trigger core_objectchange_notify
    after insert on core_objectchange
    referencing new table as new_rows
    for each statement execute function core_objectchange_notify();
