-- Ply Yard schema, version 13: the puzzle trainer. `puzzles` holds each
-- puzzle as lichess's database writes it (the position before the
-- opponent's move, then that move and the solution), with its Glicko-2
-- rating. `puzzle_angles` indexes every puzzle under each angle it can be
-- chosen by (`mix`, its themes, its openings) in rating order, so that the
-- next puzzle is a short range read. A player's rating, the puzzles served
-- to them and their rounds (the first attempt rates; a replay does not)
-- are kept per player, anonymous players included (unrated).

CREATE TABLE puzzles (
    id           TEXT PRIMARY KEY,
    fen          TEXT NOT NULL,
    moves        TEXT NOT NULL,
    initial_ply  BIGINT NOT NULL,
    rating       DOUBLE PRECISION NOT NULL,
    deviation    DOUBLE PRECISION NOT NULL,
    volatility   DOUBLE PRECISION NOT NULL,
    popularity   BIGINT NOT NULL,
    plays        BIGINT NOT NULL,
    themes       TEXT NOT NULL,
    game_url     TEXT NOT NULL,
    opening_tags TEXT NOT NULL,
    source       TEXT NOT NULL
);

CREATE TABLE puzzle_angles (
    angle     TEXT NOT NULL,
    rating    BIGINT NOT NULL,
    puzzle_id TEXT NOT NULL REFERENCES puzzles (id),
    PRIMARY KEY (angle, rating, puzzle_id)
);

CREATE TABLE puzzle_ratings (
    player_id  TEXT PRIMARY KEY REFERENCES players (id),
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

-- Where a player's walk through an angle's puzzles has reached.
CREATE TABLE puzzle_cursors (
    player_id TEXT NOT NULL REFERENCES players (id),
    angle     TEXT NOT NULL,
    rating    BIGINT NOT NULL,
    puzzle_id TEXT NOT NULL,
    PRIMARY KEY (player_id, angle)
);

CREATE TABLE puzzle_served (
    player_id TEXT NOT NULL REFERENCES players (id),
    puzzle_id TEXT NOT NULL REFERENCES puzzles (id),
    served_at BIGINT NOT NULL,
    PRIMARY KEY (player_id, puzzle_id)
);

CREATE TABLE puzzle_rounds (
    player_id     TEXT NOT NULL REFERENCES players (id),
    puzzle_id     TEXT NOT NULL REFERENCES puzzles (id),
    angle         TEXT NOT NULL,
    win           BOOLEAN NOT NULL,
    rated         BOOLEAN NOT NULL,
    rating_before DOUBLE PRECISION,
    rating_after  DOUBLE PRECISION,
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL,
    PRIMARY KEY (player_id, puzzle_id)
);

CREATE INDEX puzzle_rounds_time ON puzzle_rounds (player_id, updated_at);
