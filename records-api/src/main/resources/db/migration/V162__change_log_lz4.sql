-- The change log's JSON columns are compressed with lz4 where the server has it (PostgreSQL 14+
-- built --with-lz4, as Debian's and the official images are): a row over ~2 KB (an interface's
-- event and snapshot) is compressed at insert and decompressed when the relay reads it, and pglz
-- cost a bulk create of 1,000 interfaces ~5 ms more of its ~36 ms change-log insert. Only values
-- written from now on are affected; old ones stay readable as they are.
do $$
begin
    alter table core_objectchange
        alter column prechange_data set compression lz4,
        alter column postchange_data set compression lz4,
        alter column event_data set compression lz4;
exception when feature_not_supported then
    raise notice 'this server has no lz4: the change log keeps pglz compression';
end $$;
