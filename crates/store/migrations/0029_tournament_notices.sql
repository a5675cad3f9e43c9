-- Ply Yard schema, version 29: when the players of a tournament were told
-- it starts soon (once, whichever node tells them).
ALTER TABLE tournaments ADD COLUMN soon_notified_at BIGINT;
