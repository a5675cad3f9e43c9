//! Checks, captures and threats: comparing what the reader marked with the
//! server's complete sets. Pure functions over UCI strings and squares.
import type { Threat } from './api.js';
import { placementFromFen } from './pairs.js';

/** The server's complete answer. */
export interface Truth {
  checks: readonly string[];
  captures: readonly string[];
  threats: readonly Threat[];
}

/** What the reader marked: moves (UCI) as checks or captures, squares as threatened. */
export interface Marks {
  checks: ReadonlySet<string>;
  captures: ReadonlySet<string>;
  threatSquares: ReadonlySet<string>;
}

/** Missing and wrong marks per kind; `complete` when there are none. */
export interface Comparison {
  missingChecks: string[];
  wrongChecks: string[];
  missingCaptures: string[];
  wrongCaptures: string[];
  /** Threats whose target square was not marked. */
  missingThreats: Threat[];
  /** Marked squares no threat lands on. */
  wrongThreatSquares: string[];
  complete: boolean;
}

/** The square a threat lands on (the captured piece's, or the mating move's target). */
export function threatSquare(th: Pick<Threat, 'uci'>): string {
  return th.uci.slice(2, 4);
}

/** Compares the reader's marks with the complete sets. */
export function compareMarks(truth: Truth, marks: Marks): Comparison {
  const minus = (a: Iterable<string>, b: ReadonlySet<string>) => [...a].filter((x) => !b.has(x)).sort();
  const threatSquares = new Set(truth.threats.map(threatSquare));
  const c = {
    missingChecks: minus(truth.checks, marks.checks),
    wrongChecks: minus(marks.checks, new Set(truth.checks)),
    missingCaptures: minus(truth.captures, marks.captures),
    wrongCaptures: minus(marks.captures, new Set(truth.captures)),
    missingThreats: truth.threats.filter((th) => !marks.threatSquares.has(threatSquare(th))),
    wrongThreatSquares: minus(marks.threatSquares, threatSquares),
  };
  const complete = Object.values(c).every((list) => list.length === 0);
  return { ...c, complete };
}

/**
 * A threat written from the position's data when the server gives no SAN:
 * the moving piece's English letter (none for a pawn), its square, `x` when
 * the target square holds a piece, and the target ("Nf3xe5").
 */
export function threatName(fen: string, th: Threat): string {
  if (th.san) return th.san;
  const board = placementFromFen(fen);
  const from = th.uci.slice(0, 2);
  const to = th.uci.slice(2, 4);
  const piece = board?.get(from)?.toUpperCase() ?? '';
  return `${piece === 'P' ? '' : piece}${from}${board?.has(to) ? 'x' : '-'}${to}`;
}

/**
 * A move named by its piece and squares (`Ng1–f3`, `e4–d5`, `e7–e8=Q`,
 * `O-O`), with no mark of check, capture or mate: the list the reader ticks
 * must not give the answers away. English letters; the caller localises.
 */
export function plainMove(m: { uci: string; san: string }): string {
  const san = m.san.replace(/[+#!?]+$/, '');
  if (san.startsWith('O-O')) return san;
  const piece = /^[KQRBN]/.test(san) ? san[0]! : '';
  const promotion = m.uci.length === 5 ? `=${m.uci[4]!.toUpperCase()}` : '';
  return `${piece}${m.uci.slice(0, 2)}–${m.uci.slice(2, 4)}${promotion}`;
}
