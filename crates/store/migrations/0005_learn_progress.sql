-- Ply Yard schema, version 5: what each player has done on the Learn
-- pages (pages read, exercises, puzzles and drills solved), one row per
-- player and key. An anonymous player's rows move to the account at log-in.

CREATE TABLE learn_progress (
    player_id TEXT NOT NULL REFERENCES players (id),
    key       TEXT NOT NULL,
    done_at   BIGINT NOT NULL,
    PRIMARY KEY (player_id, key)
);
