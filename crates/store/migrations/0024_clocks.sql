-- Ply Yard schema, version 24: clocks from half a minute to 180 minutes.
-- Tables and challenges kept their base time in whole minutes; the base is
-- now in seconds (`base_s`: 30, 45, 90, or whole minutes up to 10 800),
-- filled from the minutes for the rows already there. `minutes` stays
-- (written as the whole minutes of the base, 0 under one minute) so that
-- the column's NOT NULL holds; it is no longer read.

ALTER TABLE tables ADD COLUMN base_s BIGINT NOT NULL DEFAULT 0;
UPDATE tables SET base_s = minutes * 60;

ALTER TABLE challenges ADD COLUMN base_s BIGINT NOT NULL DEFAULT 0;
UPDATE challenges SET base_s = minutes * 60;
