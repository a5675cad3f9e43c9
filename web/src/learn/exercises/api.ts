//! The exercises' side of the server: positions (inspect, strongest reply),
//! drills, puzzles and Learn progress. Wire types and fetch helpers only;
//! every rule (legal moves, SAN, mate, stalemate) is the server's answer.
import { type Color, call, failure, send } from '../../api.js';

/** One legal move with its SAN (English letters) and the position it leads to. */
export interface LegalMove {
  uci: string;
  san: string;
  fen: string;
}

/** Something the side not to move could do if it were its turn. */
export interface Threat {
  uci: string;
  kind: 'mate' | 'material' | string;
  gain: number;
  /** SAN in the position where the threat lives, when the server gives it. */
  san?: string;
}

/** Status of a position as the rules core sees it. */
export type PositionStatus = 'ongoing' | 'checkmate' | 'stalemate' | 'insufficient_material' | string;

/** `POST /api/positions/inspect` for a legal position. */
export interface Inspection {
  valid: true;
  status: PositionStatus;
  turn: Color;
  checks: string[];
  captures: string[];
  threats: Threat[];
  /** Every legal move (absent from servers that do not list them). */
  moves?: LegalMove[];
}

/** `POST /api/positions/inspect` for an illegal or unreadable position. */
export interface InvalidPosition {
  valid: false;
  error: string;
}

/** The engine's strongest answer to a candidate move. */
export interface Reply {
  uci: string | null;
  san?: string;
  score?: { cp?: number; mate?: number };
  line?: string[];
  /** When the candidate ends the game: how. */
  status?: PositionStatus;
}

/** One mate drill start position. */
export interface Drill {
  id: string;
  kind: 'kqk' | 'krk' | string;
  fen: string;
  fewest: number;
}

/** The drill position after the player's move and the defender's reply. */
export interface DrillMove {
  /** The position after the player's move and the reply. */
  fen: string;
  status: PositionStatus;
  san: string;
  /** Stalemate, the piece lost, or the 50-move rule. */
  failed: boolean;
  reply: { uci: string; san: string } | null;
  /** Moves to mate from `fen` with best play (null once the drill is over). */
  mate_in: number | null;
  /** Moves to mate from the posted position. */
  mate_in_before: number;
}

/** A puzzle as listed (no solution). */
export interface Puzzle {
  id: string;
  fen: string;
  mate_in: number;
  turn: Color;
}

/** The server's verdict on the moves played so far in a puzzle. */
export interface PuzzleCheck {
  correct: boolean;
  /** Mate given: the puzzle is solved (a wrong answer ends nothing). */
  done: boolean;
  /** SAN of the last move sent. */
  san: string;
  reply: string | null;
  reply_san: string | null;
  /** The position after the last move and the reply. */
  fen: string;
  /** Whether the server counted the solve (no wrong move and no hint on the way). */
  counted: boolean;
}

/** A hint for the next move: the piece (level 1), and its square (level 2). */
export interface Hint {
  level: number;
  role: string;
  square: string | null;
}

/** The server's facts about `fen`, or why it is not a legal position. */
export async function inspect(fen: string): Promise<Inspection | InvalidPosition> {
  const a = await send('POST', '/api/positions/inspect', { fen });
  const body = a.json as (Inspection | InvalidPosition) | null;
  if (a.status === 200 || (a.status === 422 && body?.valid === false)) return body!;
  throw failure(a);
}

/** The engine's strongest reply after `uci` is played in `fen`. */
export function strongestReply(fen: string, uci: string): Promise<Reply> {
  return call('POST', '/api/positions/reply', { fen, uci });
}

/** The mate drills' start positions. */
export function drills(): Promise<Drill[]> {
  return call('GET', '/api/drills');
}

/** Plays `uci` in a drill position; the engine defends. */
export function drillMove(fen: string, uci: string): Promise<DrillMove> {
  return call('POST', '/api/drills/move', { fen, uci });
}

/** The puzzles (without solutions). */
export function puzzles(): Promise<Puzzle[]> {
  return call('GET', '/api/puzzles');
}

/** Asks the server whether `moves` (from the puzzle's position) are right so far. */
export function checkPuzzle(id: string, moves: readonly string[]): Promise<PuzzleCheck> {
  return call('POST', `/api/puzzles/${encodeURIComponent(id)}/check`, { moves });
}

/** A hint for the next move of puzzle `id` after `moves` (1: the piece, 2: also its square). */
export function puzzleHint(id: string, level: 1 | 2, moves: readonly string[]): Promise<Hint> {
  const line = moves.length > 0 ? `&moves=${moves.join(',')}` : '';
  return call('GET', `/api/puzzles/${encodeURIComponent(id)}/hint?level=${level}${line}`);
}

/** The Learn progress the server keeps for this player. */
export async function getProgress(): Promise<string[]> {
  return (await call<{ done: string[] }>('GET', '/api/learn/progress')).done;
}

/** Adds `done` to the server's Learn progress; answers the merged list. */
export async function postProgress(done: readonly string[]): Promise<string[] | null> {
  const r = await call<{ done?: string[] } | null>('POST', '/api/learn/progress', { done });
  return r?.done ?? null;
}
