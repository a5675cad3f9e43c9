-- Ply Yard schema, version 10: game chat. Every table game has two rooms,
-- `player` (its two players) and `spectator` (anyone with an account).
-- A line is numbered within its game and room (`seq`, from 1), so that
-- the last lines of a room come back in the order they were said.

CREATE TABLE chat_lines (
    game_id     TEXT NOT NULL,
    room        TEXT NOT NULL,
    seq         BIGINT NOT NULL,
    author      TEXT NOT NULL REFERENCES players (id),
    author_name TEXT NOT NULL,
    text        TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (game_id, room, seq)
);
