-- Ply Yard schema, version 12: clubs (lichess calls them teams). A club
-- has an id made from its name, members (some of them leaders) and, when
-- it is closed, requests to join that a leader accepts or declines.
-- `nb_members` is kept in the same transaction as every change of
-- `club_members`, so lists sort by size without counting.

CREATE TABLE clubs (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    name_key    TEXT NOT NULL,
    description TEXT NOT NULL,
    open        BOOLEAN NOT NULL,
    created_by  TEXT NOT NULL REFERENCES players (id),
    nb_members  BIGINT NOT NULL,
    created_at  BIGINT NOT NULL
);

CREATE INDEX clubs_size ON clubs (nb_members, id);

CREATE TABLE club_members (
    club_id   TEXT NOT NULL REFERENCES clubs (id),
    player_id TEXT NOT NULL REFERENCES players (id),
    leader    BOOLEAN NOT NULL,
    joined_at BIGINT NOT NULL,
    PRIMARY KEY (club_id, player_id)
);

CREATE INDEX club_members_player ON club_members (player_id, joined_at);
CREATE INDEX club_members_joined ON club_members (club_id, joined_at);

-- A request to join a closed club: pending until a leader accepts (the
-- row goes, a member row comes) or declines it (kept, `declined`, so that
-- the same player cannot ask again and again).
CREATE TABLE club_requests (
    club_id    TEXT NOT NULL REFERENCES clubs (id),
    player_id  TEXT NOT NULL REFERENCES players (id),
    message    TEXT NOT NULL,
    declined   BOOLEAN NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (club_id, player_id)
);

CREATE INDEX club_requests_club ON club_requests (club_id, declined, created_at);
