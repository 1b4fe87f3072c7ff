-- Each id on the relay's pending list carries the transaction that wrote it. The relay reads the
-- list from a bound above the rows it published, and must also find a row that commits below that
-- bound later (its transaction took the id before others committed, then waited on a row lock).
-- It used to learn of such a row from the NOTIFY of its commit, but a notification can reach the
-- relay after its next read already sees the commit and the object's later rows, which then went
-- out first. Now the relay keeps the snapshot of each read and takes, below the bound, the rows of
-- the transactions that snapshot did not see: by this column, in the index below.
alter table core_objectchange_pending add column xid xid8 not null default pg_current_xact_id();
create index core_objectchange_pending_xid on core_objectchange_pending (xid, id);

-- The NOTIFY only wakes the relay now; an empty payload lets PostgreSQL fold a transaction's
-- notifications into one, whatever the statements wrote.
create or replace function core_objectchange_notify() returns trigger
language plpgsql as $$
begin
    insert into core_objectchange_pending (id) select id from new_rows;
    perform pg_notify('object_changes', '');
    return null;
end;
$$;
