//! Moves as data: chessground's dests from the server's legal moves, the
//! moves behind one square pair, the side to move of a FEN, SAN without
//! its signs. No DOM, no rules: everything comes from the server's lists.
import type { Key } from '@lichess-org/chessground/types';
import type { Color } from '../../api.js';
import type { LegalMove } from './api.js';

/** chessground's dests for `moves` (from-square → to-squares, each once). */
export function destsOf(moves: readonly Pick<LegalMove, 'uci'>[]): Map<Key, Key[]> {
  const m = new Map<Key, Key[]>();
  for (const { uci } of moves) {
    const from = uci.slice(0, 2) as Key;
    const to = uci.slice(2, 4) as Key;
    const list = m.get(from) ?? [];
    if (!list.includes(to)) list.push(to);
    m.set(from, list);
  }
  return m;
}

/** The moves from→to (several only for a promotion). */
export function movesBetween<M extends Pick<LegalMove, 'uci'>>(moves: readonly M[], from: string, to: string): M[] {
  return moves.filter((m) => m.uci.slice(0, 4) === from + to);
}

/** The side to move in `fen`. */
export function turnOf(fen: string): Color {
  return fen.split(' ')[1] === 'b' ? 'black' : 'white';
}

/** The from/to squares of a UCI move, as chessground's last move. */
export function lastMoveOf(uci: string | null | undefined): Key[] | undefined {
  return uci ? [uci.slice(0, 2) as Key, uci.slice(2, 4) as Key] : undefined;
}

/** SAN without check, mate and annotation signs, for comparing moves. */
export function bareSan(san: string): string {
  return san.replace(/[+#!?]+$/, '');
}
