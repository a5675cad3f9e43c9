-- Ply Yard schema, version 14: Arena tournaments. A tournament keeps its
-- settings as the JSON of the validated draft (`plyyard_arena::ArenaDraft`,
-- its password included: it is never shown), its players (who joined,
-- whether they are withdrawn or paused, when they paused) and its
-- pairings, one per game, from which every sheet, score and standing is
-- computed. `nb_players` is kept in the same transaction as every insert
-- into `tournament_players`.

CREATE TABLE tournaments (
    id          TEXT PRIMARY KEY,
    kind        TEXT NOT NULL,
    name        TEXT NOT NULL,
    description TEXT NOT NULL,
    created_by  TEXT NOT NULL REFERENCES players (id),
    club_id     TEXT REFERENCES clubs (id),
    settings    TEXT NOT NULL,
    status      TEXT NOT NULL,
    starts_at   BIGINT NOT NULL,
    finishes_at BIGINT NOT NULL,
    nb_players  BIGINT NOT NULL,
    created_at  BIGINT NOT NULL
);

CREATE INDEX tournaments_status ON tournaments (status, starts_at);
CREATE INDEX tournaments_club ON tournaments (club_id, starts_at);
CREATE INDEX tournaments_creator ON tournaments (created_by, created_at);

-- `withdrawn`: paused or withdrawn (lichess's `withdraw`): not paired
-- until they join again. `pauses`: a JSON array of the Unix-ms times of
-- their pauses, oldest first (the penalty for rejoining grows with them).
CREATE TABLE tournament_players (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    player_id     TEXT NOT NULL REFERENCES players (id),
    rating        BIGINT NOT NULL,
    withdrawn     BOOLEAN NOT NULL,
    pauses        TEXT NOT NULL,
    joined_at     BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, player_id)
);

CREATE INDEX tournament_players_player ON tournament_players (player_id, joined_at);

-- One row per game of a tournament: `playing` until the game ends, then
-- `finished` with the game's result (`1-0`, `0-1`, `1/2-1/2`, `*` for an
-- aborted game) and plies; the ratings are those when it was paired.
CREATE TABLE tournament_pairings (
    game_id       TEXT PRIMARY KEY REFERENCES games (id),
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    white_player  TEXT NOT NULL REFERENCES players (id),
    black_player  TEXT NOT NULL REFERENCES players (id),
    white_rating  BIGINT NOT NULL,
    black_rating  BIGINT NOT NULL,
    status        TEXT NOT NULL,
    result        TEXT,
    plies         BIGINT NOT NULL,
    white_berserk BOOLEAN NOT NULL,
    black_berserk BOOLEAN NOT NULL,
    created_at    BIGINT NOT NULL,
    finished_at   BIGINT
);

CREATE INDEX tournament_pairings_tournament ON tournament_pairings (tournament_id, created_at);
CREATE INDEX tournament_pairings_status ON tournament_pairings (tournament_id, status);
