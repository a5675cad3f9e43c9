-- Ply Yard schema, version 7: every tag of an imported game (within
-- bounds), so that its PGN export gives them back. JSON text: an array of
-- [name, value] pairs in file order. NULL for games imported before: their
-- export falls back to the names, event, site and date stored beside.

ALTER TABLE imported_games ADD COLUMN tags TEXT;
