-- Ply Yard schema, version 29: TV reads the games in progress that moved
-- lately, the most recent first.
CREATE INDEX games_status_updated ON games (status, updated_at);
