-- Ply Yard schema, version 30: each account's preferences, as the JSON
-- of `plyyard_accounts::prefs::Prefs` (read back value by value: what is
-- no longer valid falls back to its default). Deleted with the account.
CREATE TABLE account_prefs (
    player_id  TEXT PRIMARY KEY REFERENCES players (id),
    prefs      TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);
