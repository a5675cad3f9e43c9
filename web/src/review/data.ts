//! The review's wire types (docs/protocol.md, "Review"), its requests, and
//! pure helpers over a review: winning chances for the graph, the next
//! labelled move, arrows for the board.
import { call } from '../api.js';

/** An evaluation from White's side. */
export type Eval = { cp: number } | { mate: number } | { checkmate: 'white' | 'black' };

/** A move label. */
export type Label = 'inaccuracy' | 'mistake' | 'blunder';

/** A line of moves in UCI and SAN, with the position after each move. */
export interface BestLine {
  uci: string[];
  san: string[];
  fens: string[];
}

/** One reviewed move, rendered in the viewer's language. */
export interface MoveReview {
  ply: number;
  side: 'white' | 'black';
  san: string;
  uci: string;
  before: Eval;
  after: Eval;
  best: BestLine;
  label: Label | null;
  symbol: string | null;
  label_name: string | null;
  mate: { kind: string; moves: number } | null;
  loss: number;
  accuracy: number;
  texts: string[];
}

/** One side's figures. */
export interface SideSummary {
  accuracy: number | null;
  inaccuracies: number;
  mistakes: number;
  blunders: number;
  missed_mates: number;
  allowed_mates: number;
}

/** The review proper. */
export interface Review {
  format: number;
  start: Eval;
  moves: MoveReview[];
  white: SideSummary;
  black: SideSummary;
}

/** Who played a side of a reviewed game. */
export interface ReviewPlayer {
  kind: 'user' | 'anonymous' | 'computer' | 'deleted' | 'pgn' | string;
  name: string | null;
  level: string | null;
}

/** The reviewed game. */
export interface ReviewGame {
  id: string;
  kind: string;
  variant: string;
  initial_fen: string;
  result: string;
  reason: string | null;
  white: ReviewPlayer;
  black: ReviewPlayer;
  /** The viewer's side, when the viewer played the game. */
  you?: 'white' | 'black' | null;
  moves: { ply: number; uci: string; san: string; fen: string }[];
}

/** GET/POST /api/games/{id}/review. */
export type ReviewAnswer =
  | { status: 'done'; lang: string; game: ReviewGame; review: Review }
  | { status: 'queued' }
  | { status: 'running'; done: number; total: number }
  | { status: 'failed'; message: string }
  | { status: 'none' };

/** The review of game `id` (or where it stands), its texts in `lang` (default: the server's choice). */
export function getReview(id: string, lang?: string): Promise<ReviewAnswer> {
  const q = lang ? `?lang=${encodeURIComponent(lang)}` : '';
  return call('GET', `/api/games/${encodeURIComponent(id)}/review${q}`);
}

/** Starts (or joins) the review of game `id`. */
export function startReview(id: string): Promise<ReviewAnswer> {
  return call('POST', `/api/games/${encodeURIComponent(id)}/review`);
}

/** The URL of a review's progress events. */
export function reviewEventsUrl(id: string): string {
  return `/api/games/${encodeURIComponent(id)}/review/events`;
}

/** Steepness of the winning-chances curve (the server's, docs/review.md). */
const SLOPE = 0.00368208;

/** White's winning chances, 0–100. */
export function whitePercent(e: Eval): number {
  let cp: number;
  if ('cp' in e) cp = Math.max(-1000, Math.min(1000, e.cp));
  else if ('mate' in e) cp = e.mate > 0 ? 1000 : -1000;
  else cp = e.checkmate === 'white' ? 1000 : -1000;
  return 50 + 50 * (2 / (1 + Math.exp(-SLOPE * cp)) - 1);
}

/** An evaluation as text: `+0.35`, `−1.20`, `#3`, `#−2`, `#`. */
export function evalText(e: Eval): string {
  if ('cp' in e) return `${e.cp >= 0 ? '+' : '−'}${(Math.abs(e.cp) / 100).toFixed(2)}`;
  if ('mate' in e) return e.mate >= 0 ? `#${e.mate}` : `#−${-e.mate}`;
  return '#';
}

/** The evaluations of every position, from the start (index = plies played). */
export function evalsOf(review: Review): Eval[] {
  return [review.start, ...review.moves.map((m) => m.after)];
}

/** The ply of the next labelled move after `ply` (wrapping to the first), or null when none is labelled. */
export function nextLabelled(review: Review, ply: number): number | null {
  const labelled = review.moves.filter((m) => m.label !== null).map((m) => m.ply);
  if (labelled.length === 0) return null;
  return labelled.find((p) => p > ply) ?? labelled[0]!;
}

/** A board arrow. */
export interface Arrow {
  orig: string;
  dest: string;
  brush: 'blue' | 'green' | 'red' | 'yellow';
}

/** From and to squares of a UCI move. */
export function squaresOf(uci: string): [string, string] {
  return [uci.slice(0, 2), uci.slice(2, 4)];
}

/** Arrows for move `m`: the move played (blue, red when labelled) and the best move (green) when it differs. */
export function moveArrows(m: MoveReview): Arrow[] {
  const [o, d] = squaresOf(m.uci);
  const arrows: Arrow[] = [{ orig: o, dest: d, brush: m.label ? 'red' : 'blue' }];
  const best = m.best.uci[0];
  if (best && best !== m.uci) {
    const [bo, bd] = squaresOf(best);
    arrows.push({ orig: bo, dest: bd, brush: 'green' });
  }
  return arrows;
}

/** The move number of ply `ply` (1-based) of a game starting from `initialFen` (its side to move and full-move number). */
export function moveNumberOf(initialFen: string, ply: number): number {
  const parts = initialFen.split(' ');
  const blackFirst = parts[1] === 'b' ? 1 : 0;
  const first = Number(parts[5] ?? '1');
  const start = Number.isInteger(first) && first >= 1 ? first : 1;
  return start + Math.floor((ply - 1 + blackFirst) / 2);
}

/**
 * Whether move `m`'s engine line really ends in the mate its score claims:
 * the score before the move is a mate, the line's last move mates (the
 * server's SAN says `#`), and the line is exactly as long as that mate.
 * A line cut short, or one that does not mate, gets no mate score beside it.
 */
export function lineMates(m: Pick<MoveReview, 'before' | 'best' | 'side'>): boolean {
  const e = m.before;
  if (!('mate' in e) || e.mate === 0) return false;
  const san = m.best.san;
  if (!san[san.length - 1]?.endsWith('#')) return false;
  const moverMates = e.mate > 0 === (m.side === 'white');
  const n = Math.abs(e.mate);
  return san.length === (moverMates ? 2 * n - 1 : 2 * n);
}
