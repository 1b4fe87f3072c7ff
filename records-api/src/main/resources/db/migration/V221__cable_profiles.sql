-- NetBox 4.5's cable profiles: a cable may have a profile (single, trunk, breakout, shuffle)
-- that gives each of its ends connectors with lanes (positions). Each termination of a profiled
-- cable is on a connector of its end (its place in the end's list) and carries that connector's
-- positions; the cabled object keeps both, as it keeps its cable and end (cable_connector,
-- cable_positions), and path tracing follows the lanes. A cable without a profile has neither.
alter table dcim_cable add column profile varchar(50);

alter table dcim_cabletermination
    add column connector smallint check (connector between 1 and 256),
    add column positions integer[],
    add constraint dcim_cabletermination_unique_connector unique (cable_id, cable_end, connector);

do $$
declare t text;
begin
    foreach t in array array['dcim_interface', 'dcim_consoleport', 'dcim_consoleserverport', 'dcim_powerport',
        'dcim_poweroutlet', 'dcim_frontport', 'dcim_rearport', 'dcim_powerfeed', 'circuits_circuittermination'] loop
        execute format('alter table %I add column cable_connector smallint, add column cable_positions integer[]', t);
    end loop;
end $$;

create or replace function sot_cable_termination_changed() returns trigger language plpgsql as $$
begin
    if tg_op in ('DELETE', 'UPDATE') then
        execute format('update %I set cable_id = null, cable_end = %L, cable_connector = null, cable_positions = null'
                       ' where id = $1', replace(old.termination_type, '.', '_'), '')
            using old.termination_id;
    end if;
    if tg_op in ('INSERT', 'UPDATE') then
        execute format('update %I set cable_id = $1, cable_end = $2, cable_connector = $3, cable_positions = $4'
                       ' where id = $5', replace(new.termination_type, '.', '_'))
            using new.cable_id, new.cable_end, new.connector, new.positions, new.termination_id;
        return new;
    end if;
    return old;
end $$;
