-- The fields NetBox 4.5 and 4.6 added to existing models.

-- comments on the organizational models that lacked them
alter table circuits_circuitgroup add column comments text not null default '';
alter table circuits_virtualcircuittype add column comments text not null default '';
alter table dcim_inventoryitemrole add column comments text not null default '';
alter table ipam_asnrange add column comments text not null default '';
alter table tenancy_contactrole add column comments text not null default '';
alter table vpn_tunnelgroup add column comments text not null default '';

-- a bay (and its template) may be disabled: nothing can be installed in it, and it reads occupied
alter table dcim_devicebay add column enabled boolean not null default true;
alter table dcim_modulebay add column enabled boolean not null default true;
alter table dcim_devicebaytemplate add column enabled boolean not null default true;
alter table dcim_modulebaytemplate add column enabled boolean not null default true;

-- a power outlet template's colour, copied to the outlets it makes
alter table dcim_poweroutlettemplate add column color varchar(6) not null default '';

-- an ASN's role (cleared when the role is deleted)
alter table ipam_asn add column role_id bigint references ipam_role(id) on delete set null;
create index ipam_asn_role on ipam_asn(role_id) where role_id is not null;

-- custom fields: a JSON schema for JSON values; choice sets: a named colour per choice value
alter table extras_customfield add column validation_schema jsonb;
alter table extras_customfieldchoiceset add column choice_colors jsonb not null default '{}';

alter table extras_configtemplate add column debug boolean not null default false;

-- an image attachment's size in bytes, taken from the stored file
alter table extras_imageattachment add column image_size bigint;
update extras_imageattachment a set image_size = m.size from media_file m where m.name = a.image;

-- jobs: the queue a job was enqueued in, and when its user is notified
alter table core_job add column queue_name varchar(100) not null default '';
alter table core_job add column notifications varchar(30) not null default 'always';

-- a VLAN group's number of VLAN IDs, stored as NetBox's save() stores it
alter table ipam_vlangroup add column total_vlan_ids integer not null default 0;
create function ipam_vlangroup_total_vlan_ids() returns trigger language plpgsql as $$
begin
    new.total_vlan_ids := coalesce((select sum((r->>1)::int - (r->>0)::int + 1)
                                      from jsonb_array_elements(case when jsonb_typeof(new.vid_ranges) = 'array'
                                                                     then new.vid_ranges else '[]' end) r), 0);
    return new;
end $$;
create trigger ipam_vlangroup_total_vlan_ids before insert or update of vid_ranges on ipam_vlangroup
    for each row execute function ipam_vlangroup_total_vlan_ids();
update ipam_vlangroup g set total_vlan_ids = coalesce((select sum((r->>1)::int - (r->>0)::int + 1)
                                                          from jsonb_array_elements(g.vid_ranges) r), 0)
 where jsonb_typeof(g.vid_ranges) = 'array';
