-- Rack fields NetBox 4.4 serves (issue #16 §2): weight, maximum weight, outer dimensions, mounting
-- depth and airflow. Choice columns hold NetBox's values; a unit is required with a weight or an
-- outer dimension (checked by the API, as NetBox's Rack.clean does).
alter table dcim_rack
    add column weight numeric(8,2),
    add column max_weight integer,
    add column weight_unit varchar(50),
    add column outer_width smallint,
    add column outer_height smallint,
    add column outer_depth smallint,
    add column outer_unit varchar(50),
    add column mounting_depth smallint,
    add column airflow varchar(50);

-- Custom fields: the filter an object field's choices are limited by (NetBox 4.1+), and names
-- unique regardless of case (NetBox's Lower('name') constraint; the API checks it first).
alter table extras_customfield add column related_object_filter jsonb;
create unique index extras_customfield_name_lower on extras_customfield (lower(name));

-- Users: Django's staff flag, which NetBox 4.4 serves and accepts.
alter table users_user add column is_staff boolean not null default false;

-- Interfaces: PoE and wireless radio settings (NetBox's choice values; RF channel itself not yet).
alter table dcim_interface
    add column poe_mode varchar(50),
    add column poe_type varchar(50),
    add column rf_role varchar(30),
    add column rf_channel_frequency numeric(7,2),
    add column rf_channel_width numeric(7,3),
    add column tx_power smallint;
