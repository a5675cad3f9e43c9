-- Ply Yard schema, version 4: tables, where two players meet for games
-- with clocks. A table holds one game at a time (a rematch is the next
-- game at the same table).

CREATE TABLE tables (
    code        TEXT PRIMARY KEY,
    host_player TEXT NOT NULL REFERENCES players (id),
    guest_player TEXT REFERENCES players (id),
    variant     TEXT NOT NULL,
    minutes     BIGINT NOT NULL,
    increment_s BIGINT NOT NULL,
    rules       TEXT NOT NULL,
    rated       BOOLEAN NOT NULL,
    public      BOOLEAN NOT NULL,
    status      TEXT NOT NULL,
    game_id     TEXT REFERENCES games (id),
    created_at  BIGINT NOT NULL,
    expires_at  BIGINT NOT NULL
);

CREATE INDEX tables_lobby ON tables (status, public, created_at);
CREATE INDEX tables_host ON tables (host_player, status);

-- Table games: their table, whether rated, and their time control.
ALTER TABLE games ADD COLUMN table_code TEXT;
ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE games ADD COLUMN initial_ms BIGINT;
ALTER TABLE games ADD COLUMN increment_ms BIGINT;
