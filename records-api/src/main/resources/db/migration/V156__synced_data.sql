-- NetBox's SyncedDataMixin on config templates, export templates, config contexts and config
-- context profiles: the object's content (template code, data, schema) copied from a data file of
-- a data source. A data source in use cannot be deleted (PROTECT); a data file that vanishes on a
-- sync leaves the object unbound (SET NULL), its content as last copied.

alter table extras_configtemplate
    add column data_source_id bigint references core_datasource(id) on delete restrict,
    add column data_file_id bigint references core_datafile(id) on delete set null,
    add column data_path varchar(1000) not null default '',
    add column data_synced timestamptz,
    add column auto_sync_enabled boolean not null default false;
create index on extras_configtemplate(data_source_id);
create index on extras_configtemplate(data_file_id);

alter table extras_exporttemplate
    add column data_source_id bigint references core_datasource(id) on delete restrict,
    add column data_file_id bigint references core_datafile(id) on delete set null,
    add column data_path varchar(1000) not null default '',
    add column data_synced timestamptz,
    add column auto_sync_enabled boolean not null default false;
create index on extras_exporttemplate(data_source_id);
create index on extras_exporttemplate(data_file_id);

alter table extras_configcontext
    add column data_source_id bigint references core_datasource(id) on delete restrict,
    add column data_file_id bigint references core_datafile(id) on delete set null,
    add column data_path varchar(1000) not null default '',
    add column data_synced timestamptz,
    add column auto_sync_enabled boolean not null default false;
create index on extras_configcontext(data_source_id);
create index on extras_configcontext(data_file_id);

alter table extras_configcontextprofile
    add column data_source_id bigint references core_datasource(id) on delete restrict,
    add column data_file_id bigint references core_datafile(id) on delete set null,
    add column data_path varchar(1000) not null default '',
    add column data_synced timestamptz,
    add column auto_sync_enabled boolean not null default false;
create index on extras_configcontextprofile(data_source_id);
create index on extras_configcontextprofile(data_file_id);
