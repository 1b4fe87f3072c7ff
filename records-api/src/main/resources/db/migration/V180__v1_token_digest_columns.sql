-- v1 tokens keep only a digest of their key (auth.TokenDigests), as v2 tokens keep their
-- secret's: hmac_digest (hex) and pepper_id, with the key's last six characters in key_tail for
-- its display. "key" stays for v2 tokens' public keys; key_digest (its SHA-256, for their lookup)
-- is null with it. V181 moves existing rows, V182 forbids a v1 key in clear.
alter table users_token add column key_tail varchar(6);
alter table users_token alter column key drop not null;
alter table users_token alter column key_digest drop not null;
-- the lookup of a presented v1 key: its digests under each pepper, in one index scan
create unique index users_token_v1_digest on users_token (hmac_digest) where version = 1;
