-- The outbox relay's to-do list becomes a table of its own: the ids of change-log rows not yet
-- published nor parked. Publishing used to set core_objectchange.published_at, an update that
-- could never be HOT (the column was in the "unpublished" index's predicate), so every
-- published change wrote a new version of its ~1.7 KB row and entries in all seven indexes:
-- 36 ms of PostgreSQL time per 1,000 published changes, next to 1.5 ms to delete 1,000 ids
-- from a one-column table. A row is published when its id has left the list and it is not
-- parked; parked rows stay marked on the change log itself (V43).
create table core_objectchange_pending (id bigint primary key);

insert into core_objectchange_pending (id)
select id from core_objectchange where published_at is null and parked_at is null;

-- Rows go on the list in the statement that writes them, so they commit (or not) together.
create or replace function core_objectchange_notify() returns trigger
language plpgsql as $$
begin
    insert into core_objectchange_pending (id) select id from new_rows;
    perform pg_notify('object_changes', (select min(id)::text from new_rows));
    return null;
end;
$$;

-- A change-log row deleted before it was published (by an operator) leaves the list too, so the
-- relay never waits for a row that is gone. Retention deletes published rows only: nothing to do.
create function core_objectchange_unlist() returns trigger
language plpgsql as $$
begin
    delete from core_objectchange_pending p using old_rows o where p.id = o.id;
    return null;
end;
$$;

create trigger core_objectchange_unlist
    after delete on core_objectchange
    referencing old table as old_rows
    for each statement execute function core_objectchange_unlist();

create function core_objectchange_unlist_all() returns trigger
language plpgsql as $$
begin
    truncate core_objectchange_pending;
    return null;
end;
$$;

create trigger core_objectchange_unlist_all
    after truncate on core_objectchange
    for each statement execute function core_objectchange_unlist_all();

drop index core_objectchange_unpublished;
alter table core_objectchange drop column published_at;
