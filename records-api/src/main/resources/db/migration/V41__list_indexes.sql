-- Indexes found missing by the benchmark's query log (bench/README.md, "Profiling").

-- The device list's default order (name nulls first, then id): without it every page sorted the
-- whole table (top-N heapsort over 5,000 devices: ~4 ms of the ~6 ms a 50-device page cost in
-- PostgreSQL). With it a page reads only offset + limit index entries.
create index dcim_device_order on dcim_device (name nulls first, id);

-- The reverse side of NAT (nat_outside on an IP address) is loaded with nat_inside_id = any(?)
-- for each page of IP addresses: a sequential scan of the table without this index.
create index ipam_ipaddress_nat_inside on ipam_ipaddress (nat_inside_id);
