-- Counter caches on UPDATE: a row-level trigger that fires only when the row moves to another
-- owner, instead of the statement-level one that ran for every update.
--
-- The statement-level trigger (V42) collected both transition tables and planned a dynamic
-- UPDATE on every UPDATE statement of the counted table, even when no foreign key changed,
-- which is nearly every update (a device's serial, an interface's description): 0.21 ms of
-- PostgreSQL CPU per statement (pgbench, one-row update of a device: 2,800/s with it, 7,000/s
-- without). A row-level trigger's WHEN condition is checked without calling the function, so an
-- update that moves nothing now costs nothing. INSERT and DELETE keep their statement-level
-- triggers: a bulk create of 1,000 interfaces still updates each device once.

-- Moves one row's count from its old owner to its new one (either may be null).
create function sot_counter_cache_move() returns trigger language plpgsql as $$
declare
    owner_table text := tg_argv[0];
    counter text := tg_argv[1];
    fk text := tg_argv[2];
    old_owner bigint := (to_jsonb(old) ->> fk)::bigint;
    new_owner bigint := (to_jsonb(new) ->> fk)::bigint;
begin
    if old_owner is not null then
        execute format('update %I set %I = %I - 1 where id = $1', owner_table, counter, counter) using old_owner;
    end if;
    if new_owner is not null then
        execute format('update %I set %I = %I + 1 where id = $1', owner_table, counter, counter) using new_owner;
    end if;
    return null;
end
$$;

-- The UPDATE trigger of one counter (name, counted table, owner, counter column, foreign key).
create function sot_counter_cache_update_trigger(trigger_name text, counted_table text, owner_table text,
                                                 counter text, fk text)
    returns void language plpgsql as $$
begin
    execute format('create trigger %I after update on %I for each row when (old.%I is distinct from new.%I)'
                   ' execute function sot_counter_cache_move(%L, %L, %L)',
                   trigger_name, counted_table, fk, fk, owner_table, counter, fk);
end
$$;

-- Every existing counter's statement-level UPDATE trigger becomes a row-level one of the same name.
do $$
declare
    t record;
    args text[];
begin
    for t in select tg.tgname, tg.tgrelid::regclass::text as counted_table, tg.tgargs
               from pg_trigger tg
              where tg.tgfoid = 'sot_counter_cache'::regproc
                and tg.tgtype & 16 <> 0 -- an UPDATE trigger
    loop
        args := string_to_array(encode(t.tgargs, 'escape'), '\000');
        execute format('drop trigger %I on %I', t.tgname, t.counted_table);
        perform sot_counter_cache_update_trigger(t.tgname, t.counted_table, args[1], args[2], args[3]);
    end loop;
end
$$;

-- Counters added from now on get the same triggers (names as V50 cuts them).
create or replace function sot_add_counter_cache(owner_table text, counter text, counted_table text, fk text)
    returns void language plpgsql as $$
declare
    op text;
begin
    execute format('alter table %I add column %I integer not null default 0', owner_table, counter);
    execute format('update %I o set %I = (select count(*) from %I c where c.%I = o.id)',
                   owner_table, counter, counted_table, fk);
    foreach op in array array['insert', 'delete'] loop
        execute format('create trigger %I after %s on %I referencing %s for each statement'
                       ' execute function sot_counter_cache(%L, %L, %L)',
                       left(counted_table || '_' || counter, 56) || '_' || op, op, counted_table,
                       case op when 'insert' then 'new table as new_rows' else 'old table as old_rows' end,
                       owner_table, counter, fk);
    end loop;
    perform sot_counter_cache_update_trigger(left(counted_table || '_' || counter, 56) || '_update',
                                             counted_table, owner_table, counter, fk);
end
$$;
