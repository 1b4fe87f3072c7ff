-- Every replica holds the active config contexts in memory (extras.ConfigContextCache) and
-- matches devices and virtual machines against them in Java. Whatever can change what a context
-- matches notifies the channel `config_contexts` on commit, so every replica drops its copy:
-- the contexts and their assignment tables (cascading deletes of assigned objects included),
-- their tags, and the parent links of the trees matched with their ancestors. NOTIFY is
-- transactional: a rolled-back write notifies nobody, a committed one is seen by every listener.

create function config_context_notify() returns trigger
    language plpgsql as $$
begin
    perform pg_notify('config_contexts', '');
    return null;
end;
$$;

create trigger config_context_notify after insert or update or delete or truncate on extras_configcontext
    for each statement execute function config_context_notify();

do $$
declare
    t text;
begin
    foreach t in array array['regions', 'site_groups', 'sites', 'locations', 'device_types', 'roles', 'platforms',
                             'cluster_types', 'cluster_groups', 'clusters', 'tenant_groups', 'tenants'] loop
        execute format('create trigger config_context_notify after insert or update or delete or truncate'
                       ' on extras_configcontext_%s for each statement execute function config_context_notify()', t);
    end loop;
    -- Trees: a new node or a moved one changes which contexts its descendants match.
    foreach t in array array['dcim_region', 'dcim_sitegroup', 'dcim_location', 'dcim_devicerole', 'dcim_platform'] loop
        execute format('create trigger config_context_notify after insert or delete or update of parent_id'
                       ' on %I for each statement execute function config_context_notify()', t);
    end loop;
end;
$$;

-- Tags of config contexts only: tagging devices must not make every replica reload the contexts.
create trigger config_context_tag_added after insert or update on extras_taggeditem
    for each row when (new.object_type = 'extras.configcontext') execute function config_context_notify();
create trigger config_context_tag_removed after delete or update on extras_taggeditem
    for each row when (old.object_type = 'extras.configcontext') execute function config_context_notify();
