-- Ply Yard schema, version 2: accounts and sessions, and column types that
-- read the same on SQLite and PostgreSQL (BIGINT integers, BOOLEAN flags).
-- `games` and `moves` are rebuilt (portable: no ALTER COLUMN), keeping
-- every row.

CREATE TABLE games_v2 (
    id           TEXT PRIMARY KEY,
    kind         TEXT NOT NULL,
    white_player TEXT REFERENCES players (id),
    black_player TEXT REFERENCES players (id),
    level        TEXT,
    rules        TEXT NOT NULL,
    variant      TEXT NOT NULL,
    position     BIGINT,
    initial_fen  TEXT NOT NULL,
    status       TEXT NOT NULL,
    result       TEXT NOT NULL,
    reason       TEXT,
    plies        BIGINT NOT NULL,
    version      BIGINT NOT NULL,
    created_at   BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL
);

INSERT INTO games_v2 (id, kind, white_player, black_player, level, rules, variant, position,
                      initial_fen, status, result, reason, plies, version, created_at, updated_at)
SELECT id, kind, white_player, black_player, level, rules, variant, position,
       initial_fen, status, result, reason, plies, version, created_at, updated_at
FROM games;

CREATE TABLE moves_v2 (
    game_id    TEXT NOT NULL REFERENCES games_v2 (id),
    ply        BIGINT NOT NULL,
    uci        TEXT NOT NULL,
    san        TEXT NOT NULL,
    clock_ms   BIGINT,
    draw_offer BOOLEAN NOT NULL DEFAULT FALSE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);

INSERT INTO moves_v2 (game_id, ply, uci, san, clock_ms, draw_offer, created_at)
SELECT game_id, ply, uci, san, clock_ms, draw_offer <> 0, created_at
FROM moves;

DROP TABLE moves;
DROP TABLE games;
ALTER TABLE games_v2 RENAME TO games;
ALTER TABLE moves_v2 RENAME TO moves;

CREATE INDEX games_white_player ON games (white_player, updated_at);
CREATE INDEX games_black_player ON games (black_player, updated_at);

-- An account is a player with a name and a password. `username_key` is the
-- lower-cased name: names are unique whatever their case. A deleted account
-- keeps its row (and its name, so nobody can take it over) with no password.
CREATE TABLE accounts (
    player_id     TEXT PRIMARY KEY REFERENCES players (id),
    username      TEXT NOT NULL,
    username_key  TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_at    BIGINT NOT NULL,
    deleted_at    BIGINT
);

-- Log-in sessions. Only a hash of the session id is stored.
CREATE TABLE sessions (
    id_hash      TEXT PRIMARY KEY,
    player_id    TEXT NOT NULL REFERENCES accounts (player_id),
    created_at   BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL
);

CREATE INDEX sessions_player ON sessions (player_id);
CREATE INDEX sessions_expiry ON sessions (expires_at);
