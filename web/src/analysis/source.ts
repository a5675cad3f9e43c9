//! The analysis board's pure parts: its wire types (docs/protocol.md,
//! "Review"), where its position comes from, and scores as text.

/** The standard starting position. */
export const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** A score from White's side. */
export type Score = { cp: number } | { mate: number };

/** One engine line (docs/protocol.md, "Review"). */
export interface Line {
  rank: number;
  depth: number;
  score: Score;
  uci: string[];
  san: string[];
}

/** One snapshot of the analysis. */
export interface Snapshot {
  /** The position analysed. */
  fen: string;
  /** Its legal moves: from-square → to-squares. */
  dests: Record<string, string[]>;
  lines: Line[];
  done: boolean;
}

/** Where the position comes from. */
export type Source = { fen: string } | { game: string; ply: number };

/** The source named by a location's query (`fen`, or `game` and `ply`), or by `/analysis/{id}/{ply}`. */
export function sourceOf(pathname: string, search: string): Source {
  const m = /^\/analysis\/([^/]+)\/(\d+)\/?$/.exec(pathname);
  if (m) return { game: decodeURIComponent(m[1]!), ply: Number(m[2]) };
  const q = new URLSearchParams(search);
  const game = q.get('game');
  if (game) {
    const ply = Number(q.get('ply') ?? '0');
    return { game, ply: Number.isInteger(ply) && ply >= 0 ? ply : 0 };
  }
  return { fen: q.get('fen') ?? START_FEN };
}

/** A score as text, from White's side: `+0.35`, `#3`, `−#2` (Black mates in 2). */
export function scoreText(s: Score): string {
  if ('mate' in s) return s.mate >= 0 ? `#${s.mate}` : `−#${-s.mate}`;
  return `${s.cp >= 0 ? '+' : '−'}${(Math.abs(s.cp) / 100).toFixed(2)}`;
}

/** The side to move in `fen`. */
export function turnOf(fen: string): 'white' | 'black' {
  return fen.split(' ')[1] === 'b' ? 'black' : 'white';
}

/** The UCI of a move from `orig` to `dest`, a pawn reaching the last rank becoming a queen. */
export function uciOf(orig: string, dest: string, pawn: boolean): string {
  const promotes = pawn && (dest[1] === '8' || dest[1] === '1');
  return `${orig}${dest}${promotes ? 'q' : ''}`;
}
