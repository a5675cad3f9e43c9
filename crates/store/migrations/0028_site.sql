-- Ply Yard schema, version 28: the site's settings and invitations.
-- `site_settings`: name–value pairs an admin sets (`name`, `contact`,
-- `signups`: open, invite or closed); a missing one takes its default.
-- `invites`: codes an admin made; an account signing up by invitation
-- uses one, in the sign-up's transaction.

CREATE TABLE site_settings (
    name       TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE TABLE invites (
    code       TEXT PRIMARY KEY,
    created_by TEXT REFERENCES players (id),
    created_at BIGINT NOT NULL,
    used_by    TEXT REFERENCES players (id),
    used_at    BIGINT
);

CREATE INDEX invites_created ON invites (created_at);
