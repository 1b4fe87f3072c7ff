-- Rows the outbox relay could not publish and set aside (parked) so that the rows after them
-- are published: an event Kafka refuses for what it holds (too large even reduced, invalid) or
-- a row that cannot be made an event. A parked row keeps published_at null, so the change-log
-- retention never deletes it; an operator retries it by clearing parked_at (POST
-- /api/core/outbox/parked/<id>/retry/).
alter table core_objectchange
    add column parked_at   timestamptz,
    add column park_reason text;

-- The relay reads only rows that are neither published nor parked.
drop index core_objectchange_unpublished;
create index core_objectchange_unpublished on core_objectchange(id) where published_at is null and parked_at is null;
create index core_objectchange_parked on core_objectchange(id) where parked_at is not null;
