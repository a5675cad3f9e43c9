-- The keys of the client whose moves a computer game's engine answers
-- (its address and account, JSON written by plyyard-live), so that the
-- game, reloaded after an idle unload or a restart, searches in the same
-- client's share of the engine pool (issue 58).
ALTER TABLE games ADD COLUMN engine_client TEXT;
