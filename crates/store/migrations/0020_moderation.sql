-- Ply Yard schema, version 20: moderation (docs/moderation.md).
--
-- `staff_roles`: an account's staff role (`moderator` or `admin`), one at
-- most. `mod_marks`: the marks moderators set on an account (`mute`,
-- `close`, `engine`), one row per mark while it holds; lifting a mark
-- deletes its row. `mod_warnings`: messages from the moderators, shown on
-- the player's next page until they read them (`seen_at`). `reports`:
-- players' reports, open until a moderator closes them with an action.
-- `mod_log`: every moderation action (who, what, whom, when, why); a
-- NULL `moderator` is the operator's command line. Ids are random texts.
--
-- `chat_lines.shadow`: a line said while its author was muted, shown to
-- nobody but its author.

CREATE TABLE staff_roles (
    player_id  TEXT PRIMARY KEY REFERENCES accounts (player_id),
    role       TEXT NOT NULL,
    granted_at BIGINT NOT NULL
);

CREATE TABLE mod_marks (
    player_id TEXT NOT NULL REFERENCES accounts (player_id),
    mark      TEXT NOT NULL,
    moderator TEXT REFERENCES accounts (player_id),
    reason    TEXT NOT NULL,
    at        BIGINT NOT NULL,
    PRIMARY KEY (player_id, mark)
);

CREATE TABLE mod_warnings (
    id        TEXT PRIMARY KEY,
    player_id TEXT NOT NULL REFERENCES accounts (player_id),
    moderator TEXT REFERENCES accounts (player_id),
    text      TEXT NOT NULL,
    at        BIGINT NOT NULL,
    seen_at   BIGINT
);

CREATE INDEX mod_warnings_player ON mod_warnings (player_id, seen_at);

CREATE TABLE reports (
    id         TEXT PRIMARY KEY,
    reporter   TEXT NOT NULL REFERENCES accounts (player_id),
    reported   TEXT NOT NULL REFERENCES accounts (player_id),
    reason     TEXT NOT NULL,
    text       TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    closed_at  BIGINT,
    closed_by  TEXT REFERENCES accounts (player_id),
    outcome    TEXT
);

CREATE INDEX reports_reported ON reports (reported, created_at);
CREATE INDEX reports_open ON reports (closed_at, created_at);

CREATE TABLE mod_log (
    id        TEXT PRIMARY KEY,
    at        BIGINT NOT NULL,
    moderator TEXT REFERENCES accounts (player_id),
    action    TEXT NOT NULL,
    target    TEXT REFERENCES accounts (player_id),
    details   TEXT NOT NULL
);

CREATE INDEX mod_log_at ON mod_log (at);
CREATE INDEX mod_log_target ON mod_log (target, at);

ALTER TABLE chat_lines ADD COLUMN shadow BOOLEAN NOT NULL DEFAULT FALSE;
CREATE INDEX chat_lines_author ON chat_lines (author, created_at);
