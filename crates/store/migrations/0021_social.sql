-- Ply Yard schema, version 21: the people around the games.
--
-- `relations`: what one account holds about another, one row per ordered
-- pair: `follow` or `block`. A block replaces a follow (one never follows
-- a player one blocks) and ends the blocked player's follow, in the same
-- transaction.
CREATE TABLE relations (
    owner_id   TEXT NOT NULL REFERENCES players (id),
    other_id   TEXT NOT NULL REFERENCES players (id),
    kind       TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (owner_id, other_id)
);

CREATE INDEX relations_owner ON relations (owner_id, kind, created_at);
CREATE INDEX relations_other ON relations (other_id, kind, created_at);

-- Private messages. A thread holds the messages between two accounts;
-- its id is their two player ids, the smaller first, joined by a space.
-- `nb_msgs` numbers its messages (kept in the transaction that adds one),
-- `last_*` is its last message for the inbox, `unread_by` the player who
-- has not read it yet (NULL once read).
CREATE TABLE msg_threads (
    id          TEXT PRIMARY KEY,
    player_a    TEXT NOT NULL REFERENCES players (id),
    player_b    TEXT NOT NULL REFERENCES players (id),
    nb_msgs     BIGINT NOT NULL,
    last_author TEXT NOT NULL,
    last_text   TEXT NOT NULL,
    last_at     BIGINT NOT NULL,
    unread_by   TEXT
);

CREATE INDEX msg_threads_a ON msg_threads (player_a, last_at);
CREATE INDEX msg_threads_b ON msg_threads (player_b, last_at);
CREATE INDEX msg_threads_unread ON msg_threads (unread_by);

CREATE TABLE msgs (
    thread_id  TEXT NOT NULL REFERENCES msg_threads (id),
    seq        BIGINT NOT NULL,
    author     TEXT NOT NULL REFERENCES players (id),
    text       TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (thread_id, seq)
);

-- Notifications: what an account is told in the header's bell (a
-- challenge received, a message received …). `content` is the JSON of the
-- notification's details (`plyyard_social::notify`); `seen` once the
-- account opened the list. Kept 30 days (pruned by `created_at`).
CREATE TABLE notifications (
    id         TEXT PRIMARY KEY,
    player_id  TEXT NOT NULL REFERENCES players (id),
    kind       TEXT NOT NULL,
    content    TEXT NOT NULL,
    seen       BOOLEAN NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE INDEX notifications_player ON notifications (player_id, created_at);
CREATE INDEX notifications_created ON notifications (created_at);
