-- Ply Yard schema, version 26: Puzzle Storm's runs, as the player's
-- browser reports them at the end of a run (accounts only), for lichess's
-- storm dashboard.
CREATE TABLE storm_runs (
    player_id TEXT NOT NULL REFERENCES players (id),
    ended_at  BIGINT NOT NULL,
    score     BIGINT NOT NULL,
    moves     BIGINT NOT NULL,
    errors    BIGINT NOT NULL,
    combo     BIGINT NOT NULL,
    time_s    BIGINT NOT NULL,
    highest   BIGINT NOT NULL,
    PRIMARY KEY (player_id, ended_at)
);
