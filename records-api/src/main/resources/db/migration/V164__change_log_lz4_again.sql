-- V163 changed the change log's JSON columns from jsonb to json, and ALTER ... TYPE resets a
-- column's compression to the server's default (pglz): V162's lz4 is set again here, on the
-- same terms (kept pglz where the server has no lz4; values written from now on).
do $$
begin
    alter table core_objectchange
        alter column prechange_data set compression lz4,
        alter column postchange_data set compression lz4,
        alter column event_data set compression lz4;
exception when feature_not_supported then
    raise notice 'this server has no lz4: the change log keeps pglz compression';
end $$;
