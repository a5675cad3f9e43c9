//! Pure facts about a game's state, shared by the game page's controller
//! and its view (no DOM, no requests, no wording).
import type { Color, GameState } from '../api.js';

/** Is `g` a game at a table (two people, clocks)? */
export function isTableGame(g: GameState | null): boolean {
  return g?.kind === 'table';
}

/** Is `g` played with a clock (at a table, or against the computer with one)? */
export function hasClock(g: GameState | null): boolean {
  return !!g?.clock;
}

/** The other colour. */
export function opposite(c: Color): Color {
  return c === 'white' ? 'black' : 'white';
}

/** May the seated viewer abort `g` now (a table game before both sides have moved)? */
export function canAbort(g: GameState): boolean {
  return isTableGame(g) && g.you !== null && g.status === 'ongoing' && g.moves.length < 2;
}
