//! The mate/stalemate pair rule, as data: two positions "differ by one line
//! of attack" when they have the same side to move and their placements
//! differ by exactly one piece — one piece added, one removed, one replaced
//! by another on the same square, or one piece moved to an empty square.
//! Since the mated king is in check and the stalemated one is not, that one
//! change is what makes or breaks the attack on the king. Whether each
//! position is legal, checkmate or stalemate is the server's verdict; this
//! module only compares the two placements (which pieces stand where).

/** A piece as in FEN: `K` white king … `p` black pawn. */
export type PieceChar = 'K' | 'Q' | 'R' | 'B' | 'N' | 'P' | 'k' | 'q' | 'r' | 'b' | 'n' | 'p';

/** Square → piece. */
export type Placement = ReadonlyMap<string, PieceChar>;

const FILES = 'abcdefgh';

/** The placement field of a FEN (rank 8 first). */
export function placementToFen(p: Placement): string {
  const ranks: string[] = [];
  for (let r = 8; r >= 1; r--) {
    let row = '';
    let empty = 0;
    for (const f of FILES) {
      const piece = p.get(`${f}${r}`);
      if (!piece) {
        empty++;
        continue;
      }
      if (empty) row += String(empty);
      empty = 0;
      row += piece;
    }
    ranks.push(row + (empty ? String(empty) : ''));
  }
  return ranks.join('/');
}

/** The placement of a FEN's first field; null if it is not eight ranks of eight squares. */
export function placementFromFen(fen: string): Map<string, PieceChar> | null {
  const rows = (fen.split(' ')[0] ?? '').split('/');
  if (rows.length !== 8) return null;
  const out = new Map<string, PieceChar>();
  for (let i = 0; i < 8; i++) {
    let file = 0;
    for (const c of rows[i]!) {
      if (/[1-8]/.test(c)) file += Number(c);
      else if (/[KQRBNPkqrbnp]/.test(c) && file < 8) out.set(`${FILES[file++]}${8 - i}`, c as PieceChar);
      else return null;
    }
    if (file !== 8) return null;
  }
  return out;
}

/** A FEN for a built position: no castling, no en passant (an editor cannot know them). */
export function builtFen(p: Placement, turn: 'white' | 'black'): string {
  return `${placementToFen(p)} ${turn === 'white' ? 'w' : 'b'} - - 0 1`;
}

/** How two placements differ. */
export type Difference =
  | { kind: 'same' }
  | { kind: 'added' | 'removed'; square: string; piece: PieceChar }
  | { kind: 'replaced'; square: string; from: PieceChar; to: PieceChar }
  | { kind: 'moved'; from: string; to: string; piece: PieceChar }
  | { kind: 'more'; squares: number };

/** The one change that turns placement `a` into `b`, if it is one. */
export function differenceOf(a: Placement, b: Placement): Difference {
  const squares = [...new Set([...a.keys(), ...b.keys()])].filter((s) => a.get(s) !== b.get(s)).sort();
  if (squares.length === 0) return { kind: 'same' };
  if (squares.length === 1) {
    const s = squares[0]!;
    const x = a.get(s);
    const y = b.get(s);
    if (x && y) return { kind: 'replaced', square: s, from: x, to: y };
    return y ? { kind: 'added', square: s, piece: y } : { kind: 'removed', square: s, piece: x! };
  }
  if (squares.length === 2) {
    const [s, u] = squares as [string, string];
    const moved = (from: string, to: string): Difference | null => {
      const piece = a.get(from);
      return piece && !b.has(from) && !a.has(to) && b.get(to) === piece ? { kind: 'moved', from, to, piece } : null;
    };
    const m = moved(s, u) ?? moved(u, s);
    if (m) return m;
  }
  return { kind: 'more', squares: squares.length };
}

/** One position's verdict from the server. */
export type Verdict = { valid: false; error: string } | { valid: true; status: string };

/** The judgement of a built pair. */
export interface PairJudgement {
  mateOk: boolean;
  stalemateOk: boolean;
  sameTurn: boolean;
  difference: Difference;
  /** Everything as asked: a checkmate, a stalemate, one change apart. */
  pass: boolean;
}

/** Judges a pair from the server's verdicts and the two placements. */
export function judgePair(
  mate: { placement: Placement; turn: string; verdict: Verdict },
  stalemate: { placement: Placement; turn: string; verdict: Verdict },
): PairJudgement {
  const mateOk = mate.verdict.valid && mate.verdict.status === 'checkmate';
  const stalemateOk = stalemate.verdict.valid && stalemate.verdict.status === 'stalemate';
  const sameTurn = mate.turn === stalemate.turn;
  const difference = differenceOf(mate.placement, stalemate.placement);
  const oneChange = difference.kind !== 'same' && difference.kind !== 'more';
  return { mateOk, stalemateOk, sameTurn, difference, pass: mateOk && stalemateOk && sameTurn && oneChange };
}
