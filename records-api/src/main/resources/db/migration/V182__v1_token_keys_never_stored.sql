-- After V181 no v1 token holds its key: one that did would be a secret at rest in clear.
alter table users_token add constraint users_token_v1_digest_only
    check (version = 2 or (key is null and hmac_digest is not null));
