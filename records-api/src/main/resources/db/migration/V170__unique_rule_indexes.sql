-- The unique indexes behind the uniqueness rules that were checked before writing only: the check
-- cannot see rows of transactions not yet committed, so concurrent identical writes could each
-- pass it. One index per pattern of NULLs a rule compares as equal (a top-level region's name is
-- unique among top-level regions: a partial index WHERE parent_id IS NULL), lower(name) where the
-- rule ignores case, as NetBox 4.6's constraints (and under their names where NetBox has one).
-- engine/write/UniqueIndexes matches indexes to rules by definition; UniqueIndexesTest fails for
-- a rule without its index.
--
-- Stored rows may already break a rule (duplicates written by such concurrent requests): the
-- index cannot be built then, and failing the migration would keep the service from starting.
-- unique_index_create builds what it can and records each index it could not build in
-- unique_index_pending, with the duplicate rows (key values and ids), and raises a warning; the
-- service logs them at every start and tries them again (unique_index_retry_pending), so an
-- operator resolves the duplicates (rename or delete, through the API) and restarts. Nothing is
-- renamed or deleted here: no row changes without its change record. See docs/unique-rules.md.

create table unique_index_pending (
    index_name  text primary key,
    table_name  text not null,
    key_terms   text not null,
    row_filter  text,
    duplicates  text not null,
    first_tried timestamptz not null default now(),
    last_tried  timestamptz not null default now()
);

-- Builds unique index new_index on on_table (key_terms) [WHERE row_filter], unless a relation of
-- that name exists. True when the index exists afterwards; false when stored rows hold duplicates
-- (then listed in unique_index_pending: the first 50 groups, oldest first).
create function unique_index_create(new_index text, on_table text, key_terms text, row_filter text default null)
returns boolean language plpgsql as $$
declare
    duplicate_groups text;
begin
    if to_regclass(quote_ident(new_index)) is null then
        begin
            execute format('create unique index %I on %I (%s)', new_index, on_table, key_terms)
                    || coalesce(' where ' || row_filter, '');
        exception when unique_violation then
            execute format('select string_agg(row_to_json(g)::text, ''; '') from ('
                           'select %s, array_agg(id order by id) as ids from %I%s group by %s'
                           ' having count(*) > 1 order by min(id) limit 50) g',
                           key_terms, on_table, coalesce(' where ' || row_filter, ''), key_terms)
                into duplicate_groups;
            insert into unique_index_pending as p (index_name, table_name, key_terms, row_filter, duplicates)
            values (new_index, on_table, key_terms, row_filter, duplicate_groups)
            on conflict (index_name) do update
                set key_terms = excluded.key_terms, row_filter = excluded.row_filter,
                    duplicates = excluded.duplicates, last_tried = now();
            raise warning 'unique index % on % not built: stored rows already break its rule (ids): %',
                new_index, on_table, duplicate_groups;
            return false;
        end;
    end if;
    delete from unique_index_pending p where p.index_name = new_index;
    return true;
end
$$;

-- Tries every pending index again; answers those still pending. One caller at a time (several
-- replicas start together).
create function unique_index_retry_pending()
returns table (index_name text, table_name text, duplicates text) language plpgsql as $$
declare
    pending record;
begin
    perform pg_advisory_xact_lock(hashtext('unique_index_retry_pending'));
    for pending in select * from unique_index_pending p order by p.index_name loop
        perform unique_index_create(pending.index_name, pending.table_name, pending.key_terms, pending.row_filter);
    end loop;
    return query select p.index_name, p.table_name, p.duplicates from unique_index_pending p order by p.index_name;
end
$$;

-- Nested groups and device roles: name and slug unique among siblings, and among top-level objects.
select unique_index_create('dcim_region_parent_name', 'dcim_region', 'parent_id, name');
select unique_index_create('dcim_region_name', 'dcim_region', 'name', 'parent_id is null');
select unique_index_create('dcim_region_parent_slug', 'dcim_region', 'parent_id, slug');
select unique_index_create('dcim_region_slug', 'dcim_region', 'slug', 'parent_id is null');
select unique_index_create('dcim_sitegroup_parent_name', 'dcim_sitegroup', 'parent_id, name');
select unique_index_create('dcim_sitegroup_name', 'dcim_sitegroup', 'name', 'parent_id is null');
select unique_index_create('dcim_sitegroup_parent_slug', 'dcim_sitegroup', 'parent_id, slug');
select unique_index_create('dcim_sitegroup_slug', 'dcim_sitegroup', 'slug', 'parent_id is null');
select unique_index_create('dcim_devicerole_parent_name', 'dcim_devicerole', 'parent_id, name');
select unique_index_create('dcim_devicerole_name', 'dcim_devicerole', 'name', 'parent_id is null');
select unique_index_create('dcim_devicerole_parent_slug', 'dcim_devicerole', 'parent_id, slug');
select unique_index_create('dcim_devicerole_slug', 'dcim_devicerole', 'slug', 'parent_id is null');
select unique_index_create('tenancy_contactgroup_unique_parent_name', 'tenancy_contactgroup', 'parent_id, name');
select unique_index_create('tenancy_contactgroup_unique_name', 'tenancy_contactgroup', 'name', 'parent_id is null');
select unique_index_create('tenancy_contactgroup_unique_parent_slug', 'tenancy_contactgroup', 'parent_id, slug');
select unique_index_create('tenancy_contactgroup_unique_slug', 'tenancy_contactgroup', 'slug', 'parent_id is null');

-- Platforms: unique per manufacturer, and among those of no manufacturer.
select unique_index_create('dcim_platform_manufacturer_name', 'dcim_platform', 'manufacturer_id, name');
select unique_index_create('dcim_platform_name', 'dcim_platform', 'name', 'manufacturer_id is null');
select unique_index_create('dcim_platform_manufacturer_slug', 'dcim_platform', 'manufacturer_id, slug');
select unique_index_create('dcim_platform_slug', 'dcim_platform', 'slug', 'manufacturer_id is null');

-- Locations: unique per site and parent, and among a site's top-level locations.
select unique_index_create('dcim_location_parent_name', 'dcim_location', 'site_id, parent_id, name');
select unique_index_create('dcim_location_name', 'dcim_location', 'site_id, name', 'parent_id is null');
select unique_index_create('dcim_location_parent_slug', 'dcim_location', 'site_id, parent_id, slug');
select unique_index_create('dcim_location_slug', 'dcim_location', 'site_id, slug', 'parent_id is null');

-- Tenants: unique per group, and among tenants of no group.
select unique_index_create('tenancy_tenant_unique_group_name', 'tenancy_tenant', 'group_id, name');
select unique_index_create('tenancy_tenant_unique_name', 'tenancy_tenant', 'name', 'group_id is null');
select unique_index_create('tenancy_tenant_unique_group_slug', 'tenancy_tenant', 'group_id, slug');
select unique_index_create('tenancy_tenant_unique_slug', 'tenancy_tenant', 'slug', 'group_id is null');

-- Racks: name and facility ID unique per location (racks of no location are not compared).
select unique_index_create('dcim_rack_unique_location_name', 'dcim_rack', 'location_id, name');
select unique_index_create('dcim_rack_unique_location_facility_id', 'dcim_rack', 'location_id, facility_id');

-- Device types: model and slug unique per manufacturer.
select unique_index_create('dcim_devicetype_unique_manufacturer_model', 'dcim_devicetype', 'manufacturer_id, model');
select unique_index_create('dcim_devicetype_unique_manufacturer_slug', 'dcim_devicetype', 'manufacturer_id, slug');

-- Devices: the name, regardless of case, unique per site and tenant, and per site among
-- devices of no tenant (unnamed devices are not compared).
select unique_index_create('dcim_device_unique_name_site_tenant', 'dcim_device', 'lower(name), site_id, tenant_id');
select unique_index_create('dcim_device_unique_name_site', 'dcim_device', 'lower(name), site_id', 'tenant_id is null');

-- Virtual machines: the name, regardless of case, unique per cluster (and tenant), or, for a
-- machine of no cluster, per device (and tenant).
select unique_index_create('virtualization_virtualmachine_unique_name_cluster_tenant',
                           'virtualization_virtualmachine', 'lower(name), cluster_id, tenant_id');
select unique_index_create('virtualization_virtualmachine_unique_name_cluster',
                           'virtualization_virtualmachine', 'lower(name), cluster_id', 'tenant_id is null');
select unique_index_create('virtualization_virtualmachine_unique_name_device_tenant',
                           'virtualization_virtualmachine', 'lower(name), device_id, tenant_id', 'cluster_id is null');
select unique_index_create('virtualization_virtualmachine_unique_name_device',
                           'virtualization_virtualmachine', 'lower(name), device_id',
                           'cluster_id is null and tenant_id is null');

-- VLAN groups: name and slug unique per scope (groups of no scope are not compared).
select unique_index_create('ipam_vlangroup_unique_scope_name', 'ipam_vlangroup', 'scope_type, scope_id, name');
select unique_index_create('ipam_vlangroup_unique_scope_slug', 'ipam_vlangroup', 'scope_type, scope_id, slug');

-- Module bays: the name unique per device and module, and per device among bays of no module.
-- The same rows as the expression index of V60 (coalesce(module_id, 0)), which these replace: an
-- index whose terms are the rule's columns is one the engine can match to the rule.
select unique_index_create('dcim_modulebay_unique_device_module_name', 'dcim_modulebay', 'device_id, module_id, name');
select unique_index_create('dcim_modulebay_unique_device_name', 'dcim_modulebay', 'device_id, name', 'module_id is null');
do $$
begin
    if to_regclass('dcim_modulebay_unique_device_module_name') is not null
       and to_regclass('dcim_modulebay_unique_device_name') is not null then
        drop index if exists dcim_modulebay_device_module_name;
    end if;
end
$$;
