-- Sign-in attempts per subject ('user:<username>' or 'address:<client ip>') within the current
-- failure window (auth.SignInThrottle), shared by every replica. Rows of past windows are purged.
create table users_signin_attempt (
    subject       text primary key,
    window_start  timestamptz not null,
    attempts      integer not null
);
