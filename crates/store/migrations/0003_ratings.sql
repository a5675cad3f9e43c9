-- Ply Yard schema, version 3: Glicko-2 ratings per player and speed, and
-- the rating changes of every rated game.
-- Ratings are DOUBLE PRECISION (SQLite: REAL affinity), read as f64 on both
-- backends; a player without a row has the starting rating.

CREATE TABLE ratings (
    player_id  TEXT NOT NULL REFERENCES players (id),
    speed      TEXT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      BIGINT NOT NULL,
    updated_at BIGINT,
    PRIMARY KEY (player_id, speed)
);

-- What one rated game did to each of its two players. The primary key is
-- what makes rating a game twice impossible.
CREATE TABLE rating_changes (
    game_id           TEXT NOT NULL REFERENCES games (id),
    player_id         TEXT NOT NULL REFERENCES players (id),
    color             TEXT NOT NULL,
    speed             TEXT NOT NULL,
    result            TEXT NOT NULL,
    rating_before     DOUBLE PRECISION NOT NULL,
    deviation_before  DOUBLE PRECISION NOT NULL,
    volatility_before DOUBLE PRECISION NOT NULL,
    games_before      BIGINT NOT NULL,
    rating_after      DOUBLE PRECISION NOT NULL,
    deviation_after   DOUBLE PRECISION NOT NULL,
    volatility_after  DOUBLE PRECISION NOT NULL,
    created_at        BIGINT NOT NULL,
    PRIMARY KEY (game_id, player_id)
);

CREATE INDEX rating_changes_player ON rating_changes (player_id, speed, created_at);
