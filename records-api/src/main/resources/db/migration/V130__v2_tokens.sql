-- NetBox 4.5's v2 tokens beside the v1 keys. A v1 token keeps its 40-character secret in "key"
-- (as before). A v2 token keeps in "key" only its public 12-character identifier; its secret
-- is never stored: only HMAC-SHA256(pepper, secret) in hmac_digest, with the id of the pepper
-- (API_TOKEN_PEPPERS) that made it.
alter table users_token add column version smallint not null default 1;
alter table users_token add column pepper_id smallint;
alter table users_token add column hmac_digest varchar(64);
alter table users_token add constraint users_token_version check (version in (1, 2));
alter table users_token add constraint users_token_v2_secret
    check (version = 1 or (hmac_digest is not null and pepper_id is not null));
