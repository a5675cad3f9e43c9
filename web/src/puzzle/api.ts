//! The puzzle trainer's side of the server: lichess's puzzle API
//! (`/api/puzzle/…`, docs/api.md), called with the session cookie (an
//! account trains rated) or as the browser's anonymous player (unrated).
//! Wire types and fetch helpers only.
import { call } from '../api.js';

/** The puzzle's difficulty relative to the player's rating. */
export type Difficulty = 'easiest' | 'easier' | 'normal' | 'harder' | 'hardest';
export const DIFFICULTIES: readonly Difficulty[] = ['easiest', 'easier', 'normal', 'harder', 'hardest'];

/** A puzzle as the API gives it. */
export interface PuzzleData {
  game: {
    id: string;
    /** From the puzzle's FEN (a `FEN` tag) to the opponent's move. */
    pgn: string;
    /** The position the solver faces, after `lastMove`. */
    fen: string;
    /** The opponent's move (UCI). */
    lastMove: string;
  };
  puzzle: {
    id: string;
    rating: number;
    plays: number;
    /** Solver move, reply, solver move … (UCI). */
    solution: string[];
    themes: string[];
    initialPly: number;
  };
}

/** The player's puzzle rating. */
export interface Glicko {
  rating: number;
  deviation: number;
  provisional: boolean;
}

/** A batch of puzzles with the player's rating. */
export interface Batch {
  puzzles: PuzzleData[];
  glicko: Glicko;
}

/** One recorded result. */
export interface Round {
  id: string;
  win: boolean;
  /** Only when the round was rated. */
  ratingDiff?: number;
}

/** One result to send. */
export interface Solution {
  id: string;
  win: boolean;
  rated: boolean;
}

/** Results over a period. */
export interface Results {
  nb: number;
  firstWins: number;
  replayWins: number;
  puzzleRatingAvg: number;
  performance: number;
}

/** `GET /api/puzzle/dashboard/{days}`. */
export interface Dashboard {
  days: number;
  global: Results;
  themes: Record<string, { theme: string; results: Results }>;
}

function query(nb: number, difficulty: Difficulty): string {
  return `nb=${nb}&difficulty=${difficulty}`;
}

/** The next `nb` puzzles of `angle` and the player's rating. */
export function getBatch(angle: string, nb: number, difficulty: Difficulty): Promise<Batch> {
  return call('GET', `/api/puzzle/batch/${encodeURIComponent(angle)}?${query(nb, difficulty)}`);
}

/** Sends results; answers the rounds recorded and the next `nb` puzzles. */
export function sendSolutions(angle: string, solutions: Solution[], nb: number, difficulty: Difficulty): Promise<Batch & { rounds: Round[] }> {
  return call('POST', `/api/puzzle/batch/${encodeURIComponent(angle)}?${query(nb, difficulty)}`, { solutions });
}

/** The player's next puzzle of `angle`. */
export function nextPuzzle(angle: string, difficulty: Difficulty): Promise<PuzzleData> {
  return call('GET', `/api/puzzle/next?angle=${encodeURIComponent(angle)}&difficulty=${difficulty}`);
}

/** Puzzle `id`, served to the player (so that its result may be sent). */
export function getPuzzle(id: string): Promise<PuzzleData> {
  return call('GET', `/api/puzzle/${encodeURIComponent(id)}`);
}

/** The puzzle of the day, served to the player. */
export async function dailyPuzzle(): Promise<PuzzleData> {
  const daily = await call<PuzzleData>('GET', '/api/puzzle/daily');
  return getPuzzle(daily.puzzle.id);
}

/** The player's results over the last `days` days. */
export function getDashboard(days: number): Promise<Dashboard> {
  return call('GET', `/api/puzzle/dashboard/${days}`);
}

/** A Puzzle Storm run as the browser counted it (`POST /api/storm`). */
export interface StormRun {
  score: number;
  moves: number;
  errors: number;
  combo: number;
  /** Seconds played. */
  time: number;
  /** The highest rating among the puzzles solved (0: none). */
  highest: number;
}

/** The best storm scores: today, the last 7 and 30 days, ever. */
export interface StormHigh {
  allTime: number;
  day: number;
  month: number;
  week: number;
}

/** Records the run an account just ended; answers its best scores. */
export function sendStorm(run: StormRun): Promise<{ recorded: boolean; high: StormHigh }> {
  return call('POST', '/api/storm', run);
}
