-- Counter caches, as NetBox keeps them (CounterCacheField: Device.interface_count since 3.6,
-- DeviceType.device_count since 4.0). Counting at read time cost most of a device list page's
-- database time (interfaces of 50 devices, devices of each device type: ~2.3 of ~4.5 ms).
--
-- One statement-level trigger function serves every counter: arguments are the owner table, its
-- counter column and the counted table's foreign-key column. It adds the net change per owner
-- from the statement's transition tables, so a bulk insert of 1,000 rows updates each owner
-- once, and an update that does not move rows between owners changes nothing.
create function sot_counter_cache() returns trigger language plpgsql as $$
declare
    owner_table text := tg_argv[0];
    counter text := tg_argv[1];
    fk text := tg_argv[2];
    changes text;
begin
    changes := case tg_op
        when 'INSERT' then format('select %I as id, 1 as n from new_rows', fk)
        when 'DELETE' then format('select %I as id, -1 as n from old_rows', fk)
        else format('select %I as id, 1 as n from new_rows union all select %I, -1 from old_rows', fk, fk)
    end;
    execute format('update %I o set %I = o.%I + d.n from (select id, sum(n) as n from (%s) c'
                   ' where id is not null group by id having sum(n) <> 0) d where o.id = d.id',
                   owner_table, counter, counter, changes);
    return null;
end
$$;

-- Adds a counter: the owner's column, its current values, and the three triggers on the counted
-- table (transition tables cannot be declared for several events at once). Declared in the
-- model with Field.counterCache().
create function sot_add_counter_cache(owner_table text, counter text, counted_table text, fk text)
    returns void language plpgsql as $$
declare
    op text;
begin
    execute format('alter table %I add column %I integer not null default 0', owner_table, counter);
    execute format('update %I o set %I = (select count(*) from %I c where c.%I = o.id)',
                   owner_table, counter, counted_table, fk);
    foreach op in array array['insert', 'update', 'delete'] loop
        execute format('create trigger %I after %s on %I referencing %s for each statement'
                       ' execute function sot_counter_cache(%L, %L, %L)',
                       counted_table || '_' || counter || '_' || op, op, counted_table,
                       case op when 'insert' then 'new table as new_rows'
                               when 'delete' then 'old table as old_rows'
                               else 'old table as old_rows new table as new_rows' end,
                       owner_table, counter, fk);
    end loop;
end
$$;

select sot_add_counter_cache('dcim_device', 'interface_count', 'dcim_interface', 'device_id');
select sot_add_counter_cache('dcim_devicetype', 'device_count', 'dcim_device', 'device_type_id');
