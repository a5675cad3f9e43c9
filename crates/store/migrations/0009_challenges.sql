-- Ply Yard schema, version 9: challenges of the Lichess-compatible API and
-- the web app — one account invites another to a game with a clock. The
-- challenge's id becomes the game's id when it is accepted. A real-time
-- challenge lives while its challenger is there (`seen_at`, renewed by
-- the challenger's event stream or page) and expires 20 s after that.

CREATE TABLE challenges (
    id             TEXT PRIMARY KEY,
    challenger     TEXT NOT NULL REFERENCES players (id),
    dest           TEXT NOT NULL REFERENCES players (id),
    status         TEXT NOT NULL,
    decline_reason TEXT,
    variant        TEXT NOT NULL,
    minutes        BIGINT NOT NULL,
    increment_s    BIGINT NOT NULL,
    rated          BOOLEAN NOT NULL,
    color          TEXT NOT NULL,
    final_color    TEXT NOT NULL,
    created_at     BIGINT NOT NULL,
    seen_at        BIGINT NOT NULL,
    updated_at     BIGINT NOT NULL
);

CREATE INDEX challenges_dest ON challenges (dest, status);
CREATE INDEX challenges_challenger ON challenges (challenger, status);
