-- Ply Yard schema, version 31: `puzzle_angles` without its foreign key to
-- `puzzles`. Each entry is written only by the import, in the same
-- transaction as its puzzle and only for puzzles that transaction
-- inserted, and puzzles are never deleted: the key's check (one look-up
-- in `puzzles` per entry, about six entries a puzzle) only cost time, a
-- third of PostgreSQL's import (issue 55, docs/benchmarks.md). Rebuilt
-- rather than altered, in SQL both databases accept.

CREATE TABLE puzzle_angles_next (
    angle     TEXT NOT NULL,
    rating    BIGINT NOT NULL,
    puzzle_id TEXT NOT NULL,
    PRIMARY KEY (angle, rating, puzzle_id)
);

INSERT INTO puzzle_angles_next (angle, rating, puzzle_id)
    SELECT angle, rating, puzzle_id FROM puzzle_angles;

DROP TABLE puzzle_angles;

ALTER TABLE puzzle_angles_next RENAME TO puzzle_angles;
