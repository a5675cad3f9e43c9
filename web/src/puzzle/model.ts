//! Pure facts of the puzzle pages (no DOM): the position before the
//! opponent's move, the streak's difficulty steps, the dashboard's periods,
//! rating changes as written.
import type { Difficulty } from './api.js';

/** The position in a PGN's `FEN` tag, if any. */
export function fenTag(pgn: string): string | null {
  return /\[FEN "([^"]+)"\]/.exec(pgn)?.[1] ?? null;
}

/** The difficulty of a streak's next puzzle once `score` puzzles are solved. */
export function streakDifficulty(score: number): Difficulty {
  if (score < 2) return 'easiest';
  if (score < 5) return 'easier';
  if (score < 9) return 'normal';
  if (score < 14) return 'harder';
  return 'hardest';
}

/** The dashboard's periods. */
export const PERIODS = [7, 30, 90] as const;

/** The period of a `?days=` query (30 unless one of the periods offered). */
export function daysParam(search: string): number {
  const n = Number(new URLSearchParams(search).get('days') ?? '30');
  return (PERIODS as readonly number[]).includes(n) ? n : 30;
}

/** A signed rating change (`+12`, `−8`, `±0`). */
/** Whether `s` is a puzzle id: lichess's 5 letters or digits, or one of Ply Yard's own (`py` and 6). */
export function isPuzzleId(s: string): boolean {
  return /^([A-Za-z0-9]{5}|py[A-Za-z0-9]{6})$/.test(s);
}

export function signed(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '±0';
}
