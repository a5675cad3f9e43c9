-- Ply Yard schema, version 8: the Lichess-compatible API's credentials and
-- bot accounts.
--
-- `api_tokens` holds personal access tokens (`lip_…`) and the access
-- tokens OAuth clients obtain (`lio_…`), by the SHA-256 of the token only
-- (hex); `id` is a random public name for listing and revoking. `scopes`
-- is a comma-separated list. `oauth_codes` holds the one-use
-- authorization codes (`liu_…`, also hashed) of the PKCE flow until they
-- are exchanged or expire.
--
-- A bot account (`bot`) plays through the Bot API only; the upgrade is
-- irreversible.

ALTER TABLE accounts ADD COLUMN bot BOOLEAN NOT NULL DEFAULT FALSE;

CREATE TABLE api_tokens (
    id           TEXT PRIMARY KEY,
    hash         TEXT NOT NULL UNIQUE,
    player_id    TEXT NOT NULL REFERENCES accounts (player_id),
    kind         TEXT NOT NULL,
    scopes       TEXT NOT NULL,
    description  TEXT NOT NULL,
    client_id    TEXT,
    created_at   BIGINT NOT NULL,
    last_used_at BIGINT,
    expires_at   BIGINT
);

CREATE INDEX api_tokens_player ON api_tokens (player_id, created_at);

CREATE TABLE oauth_codes (
    hash           TEXT PRIMARY KEY,
    player_id      TEXT NOT NULL REFERENCES accounts (player_id),
    client_id      TEXT NOT NULL,
    redirect_uri   TEXT NOT NULL,
    code_challenge TEXT NOT NULL,
    scopes         TEXT NOT NULL,
    expires_at     BIGINT NOT NULL
);
