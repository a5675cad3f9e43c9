-- Ply Yard schema, version 11: live games over several nodes. A node runs
-- a game's actor only while it holds the game's lease (`expires_at`, in
-- Unix milliseconds of the database's clock, renewed every few seconds),
-- and each taking of a lease raises the game's `owner_epoch`: every write
-- of a live game names the epoch it holds, so a former owner can never
-- write again. A node running alone never takes leases.

CREATE TABLE game_leases (
    game_id    TEXT PRIMARY KEY REFERENCES games (id),
    node_id    TEXT NOT NULL,
    epoch      BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);

CREATE INDEX game_leases_node ON game_leases (node_id);

ALTER TABLE games ADD COLUMN owner_epoch BIGINT NOT NULL DEFAULT 0;

CREATE INDEX games_ongoing ON games (status, kind);
