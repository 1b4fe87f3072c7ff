-- The HTTP request behind each change (method and path), for NetBox 4.6's `request` object in
-- the change event and the default webhook body; null for a change no request made.
alter table core_objectchange
    add column request_method varchar(10),
    add column request_path text;
