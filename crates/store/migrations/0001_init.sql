-- Ply Yard schema, version 1.
-- Portable SQL: the same statements run on SQLite and PostgreSQL.
-- Times are Unix milliseconds (BIGINT); booleans are SMALLINT 0/1.

CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE players (
    id           TEXT PRIMARY KEY,
    created_at   BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL
);

CREATE TABLE games (
    id           TEXT PRIMARY KEY,
    kind         TEXT NOT NULL,
    white_player TEXT REFERENCES players (id),
    black_player TEXT REFERENCES players (id),
    level        TEXT,
    rules        TEXT NOT NULL,
    variant      TEXT NOT NULL,
    position     INTEGER,
    initial_fen  TEXT NOT NULL,
    status       TEXT NOT NULL,
    result       TEXT NOT NULL,
    reason       TEXT,
    plies        INTEGER NOT NULL,
    version      BIGINT NOT NULL,
    created_at   BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL
);

CREATE INDEX games_white_player ON games (white_player, updated_at);
CREATE INDEX games_black_player ON games (black_player, updated_at);

CREATE TABLE moves (
    game_id    TEXT NOT NULL REFERENCES games (id),
    ply        INTEGER NOT NULL,
    uci        TEXT NOT NULL,
    san        TEXT NOT NULL,
    clock_ms   BIGINT,
    draw_offer SMALLINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
