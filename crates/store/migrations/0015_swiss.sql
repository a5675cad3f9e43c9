-- Ply Yard schema, version 15: Swiss tournaments. A Swiss is a row of
-- `tournaments` of kind `swiss` (its settings the JSON of the validated
-- `plyyard_tournaments::swiss::SwissSettings`), its players are rows of
-- `tournament_players` and its games rows of `tournament_pairings`, which
-- now say the round they belong to (0 for an Arena's games). A round is
-- paired once: its row in `swiss_rounds` and its pairing-allocated bye in
-- `swiss_byes` are written in one transaction; every other entry of the
-- TRF (a game's result, a forfeit, an absence) is derived from the games.

ALTER TABLE tournament_pairings ADD COLUMN round BIGINT NOT NULL DEFAULT 0;

-- `next_round_at`: when the round after this one is to be paired (Unix
-- ms), set when the round is finished (automatic or fixed interval) or by
-- the leader (manual interval); NULL while it is unknown.
CREATE TABLE swiss_rounds (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    round         BIGINT NOT NULL,
    paired_at     BIGINT NOT NULL,
    finished_at   BIGINT,
    next_round_at BIGINT,
    PRIMARY KEY (tournament_id, round)
);

-- The pairing-allocated byes (one point each, at most one per player).
CREATE TABLE swiss_byes (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    round         BIGINT NOT NULL,
    player_id     TEXT NOT NULL REFERENCES players (id),
    PRIMARY KEY (tournament_id, round, player_id)
);

CREATE UNIQUE INDEX swiss_byes_once ON swiss_byes (tournament_id, player_id);
