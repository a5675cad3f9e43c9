//! A line of moves as the content writes it ("1. e4 e5 2. Bc4"), and
//! comparing the reader's move with the line's, by SAN.
import { bareSan } from './moves.js';

/** The usual starting position. */
export const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** The SAN moves of a line written as in a book ("1. e4 e5 2. Bc4"): move numbers and results dropped. */
export function parseLine(text: string): string[] {
  return text
    .split(/\s+/)
    .map((w) => w.replace(/^\d+\.(\.\.)?/, ''))
    .filter((w) => w.length > 0 && !/^(1-0|0-1|1\/2-1\/2|\*)$/.test(w));
}

/** Is `played` the move `expected` (SAN, ignoring check/mate/annotation signs)? */
export function sameMove(played: string, expected: string): boolean {
  return bareSan(played) === bareSan(expected);
}
