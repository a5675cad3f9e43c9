-- Ply Yard schema, version 27: fair play, and rating refunds.
-- `moves.blur`: the mover's tab had lost the focus since their previous
-- move (the web app says so with each move; other clients never do).
-- `fair_play`: the verdict on each side of each rated game, written once
-- the game has been reviewed in the background (`crates/fairplay`);
-- `rated_at` is the game's rating time, which the background task walks.
-- A game too short to assess gets its rows too, with no verdict, so that
-- the walk passes it.

ALTER TABLE moves ADD COLUMN blur BOOLEAN NOT NULL DEFAULT FALSE;

CREATE TABLE fair_play (
    game_id    TEXT NOT NULL REFERENCES games (id),
    color      TEXT NOT NULL,
    player_id  TEXT NOT NULL REFERENCES players (id),
    speed      TEXT,
    verdict    TEXT,
    signals    TEXT NOT NULL,
    acpl       BIGINT,
    won        BOOLEAN NOT NULL,
    rated_at   BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, color)
);

CREATE INDEX fair_play_player ON fair_play (player_id, rated_at);
CREATE INDEX fair_play_rated_at ON fair_play (rated_at);
CREATE INDEX rating_changes_time ON rating_changes (created_at);

-- Points given back to the victims of an engine-marked account, once per
-- victim and speed (`docs/moderation.md`).
CREATE TABLE rating_refunds (
    cheater_id TEXT NOT NULL REFERENCES players (id),
    player_id  TEXT NOT NULL REFERENCES players (id),
    speed      TEXT NOT NULL,
    points     DOUBLE PRECISION NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (cheater_id, player_id, speed)
);
