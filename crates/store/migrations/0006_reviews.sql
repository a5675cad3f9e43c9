-- Ply Yard schema, version 6: game reviews and imported games.

-- A finished review of a game: the engine's analysis as JSON text
-- (language-neutral facts; explanations are rendered in the viewer's
-- language when read). A review is written once and never changed.
CREATE TABLE reviews (
    game_id    TEXT PRIMARY KEY REFERENCES games (id),
    format     BIGINT NOT NULL,
    analysis   TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- Games imported from PGN (kind `imported` in `games`): who imported
-- them, and the players and event the PGN names.
CREATE TABLE imported_games (
    game_id     TEXT PRIMARY KEY REFERENCES games (id),
    owner       TEXT NOT NULL REFERENCES players (id),
    white_name  TEXT NOT NULL,
    black_name  TEXT NOT NULL,
    event       TEXT NOT NULL,
    site        TEXT NOT NULL,
    played_on   TEXT NOT NULL,
    created_at  BIGINT NOT NULL
);

CREATE INDEX imported_games_owner ON imported_games (owner, created_at);
