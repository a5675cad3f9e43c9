//! Notation on the client: localising the server's SAN, and resolving typed
//! move input against the legal moves the server sent (`dests`). The client
//! never decides legality: it only names the moves it was given.

/** Pieces that have letters in algebraic notation. */
export type Role = 'king' | 'queen' | 'rook' | 'bishop' | 'knight' | 'pawn';
export type PromotionRole = 'queen' | 'rook' | 'bishop' | 'knight';
export const PROMOTION_ROLES: readonly PromotionRole[] = ['queen', 'rook', 'bishop', 'knight'];

/** The letter used for each lettered piece in one language. */
export type Letters = Record<Exclude<Role, 'pawn'>, string>;

/** English letters, as the server writes SAN. */
export const ENGLISH: Letters = { king: 'K', queen: 'Q', rook: 'R', bishop: 'B', knight: 'N' };

const ROLE_OF_EN: Record<string, Exclude<Role, 'pawn'>> = {
  K: 'king',
  Q: 'queen',
  R: 'rook',
  B: 'bishop',
  N: 'knight',
};
const FIGURINES: Record<string, Exclude<Role, 'pawn'>> = {
  '♔': 'king',
  '♕': 'queen',
  '♖': 'rook',
  '♗': 'bishop',
  '♘': 'knight',
  '♚': 'king',
  '♛': 'queen',
  '♜': 'rook',
  '♝': 'bishop',
  '♞': 'knight',
};
const FEN_ROLE: Record<string, Role> = {
  k: 'king',
  q: 'queen',
  r: 'rook',
  b: 'bishop',
  n: 'knight',
  p: 'pawn',
};

/** Rewrites an English SAN (`Nxe5+`, `e8=Q#`, `O-O`) with another language's letters. */
export function localiseSan(san: string, letters: Letters): string {
  let out = san;
  const first = out[0];
  if (first !== undefined && first in ROLE_OF_EN) {
    out = letters[ROLE_OF_EN[first]!] + out.slice(1);
  }
  return out.replace(/=([QRBN])/, (_, p: string) => '=' + letters[ROLE_OF_EN[p]!]);
}

/** A piece on the board. */
export interface Piece {
  role: Role;
  white: boolean;
}

/** Reads the placement and side to move of a FEN. */
export function parseFen(fen: string): { board: Map<string, Piece>; whiteToMove: boolean } {
  const [placement = '', turn = 'w'] = fen.trim().split(/\s+/);
  const board = new Map<string, Piece>();
  const ranks = placement.split('/');
  ranks.forEach((row, i) => {
    const rank = 8 - i;
    let file = 0;
    for (const ch of row) {
      if (ch >= '1' && ch <= '8') {
        file += Number(ch);
      } else {
        const role = FEN_ROLE[ch.toLowerCase()];
        if (role && file < 8) {
          board.set(String.fromCharCode(97 + file) + rank, { role, white: ch !== ch.toLowerCase() });
        }
        file += 1;
      }
    }
  });
  return { board, whiteToMove: turn !== 'b' };
}

/** One legal move, with its names. */
export interface LegalMove {
  /** UCI to send to the server. */
  uci: string;
  /** Every UCI spelling of this move the server listed (castling has two in standard chess). */
  alt: string[];
  from: string;
  to: string;
  role: Role;
  capture: boolean;
  promotion: PromotionRole | null;
  /** 'O-O', 'O-O-O' or null. */
  castle: 'O-O' | 'O-O-O' | null;
  /** English SAN without check marks. */
  san: string;
}

const PROMO_LETTER: Record<PromotionRole, string> = { queen: 'q', rook: 'r', bishop: 'b', knight: 'n' };

/**
 * Lists the legal moves described by `dests` in the position `fen`, with
 * their SAN (without `+`/`#`, which the client cannot know). Castling given
 * both as king-to-target and king-to-rook is listed once, as king-to-target.
 */
export function legalMoves(fen: string, dests: Record<string, readonly string[]>): LegalMove[] {
  const { board } = parseFen(fen);
  const raw: Omit<LegalMove, 'san'>[] = [];
  const castles = new Map<'O-O' | 'O-O-O', Omit<LegalMove, 'san'>>();
  for (const [from, tos] of Object.entries(dests)) {
    const piece = board.get(from);
    if (!piece) continue;
    for (const to of tos) {
      const target = board.get(to);
      const fileDelta = to.charCodeAt(0) - from.charCodeAt(0);
      const ontoOwnRook = target?.role === 'rook' && target.white === piece.white;
      if (piece.role === 'king' && from[1] === to[1] && (ontoOwnRook || Math.abs(fileDelta) === 2)) {
        const castle = fileDelta > 0 ? 'O-O' : 'O-O-O';
        const known = castles.get(castle);
        // One entry per side; the king-to-target spelling is preferred for sending.
        if (!known) {
          castles.set(castle, { uci: from + to, alt: [from + to], from, to, role: 'king', capture: false, promotion: null, castle });
        } else {
          known.alt.push(from + to);
          if (!ontoOwnRook) Object.assign(known, { uci: from + to, to });
        }
        continue;
      }
      const capture = !!target || (piece.role === 'pawn' && fileDelta !== 0);
      if (piece.role === 'pawn' && (to[1] === '8' || to[1] === '1')) {
        for (const p of PROMOTION_ROLES) {
          const uci = from + to + PROMO_LETTER[p];
          raw.push({ uci, alt: [uci], from, to, role: 'pawn', capture, promotion: p, castle: null });
        }
      } else {
        raw.push({ uci: from + to, alt: [from + to], from, to, role: piece.role, capture, promotion: null, castle: null });
      }
    }
  }
  raw.push(...castles.values());
  return raw.map((m) => ({ ...m, san: sanOf(m, raw, ENGLISH) }));
}

/** SAN of `m` among `all` (for disambiguation), in the given letters, without check marks. */
export function sanOf(m: Omit<LegalMove, 'san'>, all: readonly Omit<LegalMove, 'san'>[], letters: Letters): string {
  if (m.castle) return m.castle;
  if (m.role === 'pawn') {
    const base = m.capture ? `${m.from[0]}x${m.to}` : m.to;
    return m.promotion ? `${base}=${letters[m.promotion]}` : base;
  }
  const rivals = all.filter((o) => o.role === m.role && o.to === m.to && o.from !== m.from && !o.castle);
  let dis = '';
  if (rivals.length > 0) {
    if (rivals.every((o) => o.from[0] !== m.from[0])) dis = m.from[0]!;
    else if (rivals.every((o) => o.from[1] !== m.from[1])) dis = m.from[1]!;
    else dis = m.from;
  }
  return `${letters[m.role]}${dis}${m.capture ? 'x' : ''}${m.to}`;
}

/** Outcome of resolving typed input. */
export type Resolution =
  | { kind: 'move'; move: LegalMove }
  /** The input names a pawn move to the last rank without a piece: ask which. */
  | { kind: 'promotion'; from: string; to: string; moves: LegalMove[] }
  | { kind: 'ambiguous'; moves: LegalMove[] }
  | { kind: 'none' };

interface Parsed {
  role: Role | null;
  fromFile: string | null;
  fromRank: string | null;
  to: string;
  promotion: PromotionRole | null;
}

function promotionOf(s: string, letters: Letters): PromotionRole | null | undefined {
  if (s === '') return null;
  const body = s.startsWith('=') ? s.slice(1) : s;
  for (const r of PROMOTION_ROLES) {
    if (body === letters[r] || body.toUpperCase() === letters[r].toUpperCase()) return r;
  }
  const fig = FIGURINES[body];
  if (fig && fig !== 'king') return fig;
  return undefined;
}

/** Splits a piece prefix off `s` in `letters` (longest letter first); null when none matches. */
function pieceOf(s: string, letters: Letters): { role: Exclude<Role, 'pawn'>; rest: string } | null {
  const fig = FIGURINES[s[0] ?? ''];
  if (fig) return { role: fig, rest: s.slice(1) };
  const entries = (Object.entries(letters) as [Exclude<Role, 'pawn'>, string][]).sort((a, b) => b[1].length - a[1].length);
  for (const [role, letter] of entries) {
    if (s.startsWith(letter)) return { role, rest: s.slice(letter.length) };
    // Lower-case piece letters are accepted where they cannot be read as a file.
    const lower = letter.toLowerCase();
    if (lower !== letter && !/^[a-h]/.test(lower) && s.startsWith(lower)) return { role, rest: s.slice(letter.length) };
  }
  return null;
}

function parseSan(input: string, letters: Letters): Parsed | null {
  let s = input;
  let role: Role = 'pawn';
  const piece = pieceOf(s, letters);
  if (piece) {
    role = piece.role;
    s = piece.rest;
  }
  const m = /^([a-h])?([1-8])?[x:×]?[-–]?([a-h][1-8])(=?.+)?$/.exec(s);
  if (!m) return null;
  const promotion = promotionOf(m[4] ?? '', letters);
  if (promotion === undefined) return null;
  return { role, fromFile: m[1] ?? null, fromRank: m[2] ?? null, to: m[3]!, promotion };
}

function normalise(input: string): string {
  return input
    .trim()
    .replace(/\s+/g, '')
    .replace(/[+#!?]+$/g, '')
    .replace(/e\.?p\.?$/i, '');
}

/**
 * Resolves typed input (SAN in `letters` or English, long algebraic, UCI,
 * castling with O or 0) against the legal moves. Input in the language's
 * letters wins; English letters are tried only when that finds nothing.
 */
export function resolveInput(input: string, moves: readonly LegalMove[], letters: Letters): Resolution {
  const s = normalise(input);
  if (s === '') return { kind: 'none' };

  const castle = /^([O0o])-?([O0o])(-?([O0o]))?$/.exec(s);
  if (castle) {
    const want = castle[3] ? 'O-O-O' : 'O-O';
    const found = moves.find((m) => m.castle === want);
    return found ? { kind: 'move', move: found } : { kind: 'none' };
  }

  const uci = /^([a-h][1-8])[-x:]?([a-h][1-8])([qrbnQRBN])?$/.exec(s);
  if (uci) {
    const [, from, to, promo] = uci;
    const typed = `${from}${to}${promo?.toLowerCase() ?? ''}`;
    const exact = moves.find((m) => m.alt.includes(typed));
    if (exact) return { kind: 'move', move: exact };
    const promos = moves.filter((m) => m.from === from && m.to === to && m.promotion);
    if (promos.length > 0 && !promo) return { kind: 'promotion', from: from!, to: to!, moves: promos };
    return { kind: 'none' };
  }

  for (const set of letters === ENGLISH ? [letters] : [letters, ENGLISH]) {
    const p = parseSan(s, set);
    if (!p) continue;
    const found = moves.filter(
      (m) =>
        !m.castle &&
        m.role === p.role &&
        m.to === p.to &&
        (p.fromFile === null || m.from[0] === p.fromFile) &&
        (p.fromRank === null || m.from[1] === p.fromRank),
    );
    if (found.length === 0) continue;
    if (p.promotion) {
      const exact = found.filter((m) => m.promotion === p.promotion);
      if (exact.length === 1) return { kind: 'move', move: exact[0]! };
      if (exact.length > 1) return { kind: 'ambiguous', moves: exact };
      continue;
    }
    if (found.some((m) => m.promotion)) {
      const squares = new Set(found.map((m) => m.from));
      if (squares.size === 1) return { kind: 'promotion', from: found[0]!.from, to: found[0]!.to, moves: found };
      return { kind: 'ambiguous', moves: found.filter((m) => m.promotion === 'queen') };
    }
    if (found.length === 1) return { kind: 'move', move: found[0]! };
    return { kind: 'ambiguous', moves: found };
  }
  return { kind: 'none' };
}

const FEN_CHAR: Record<Role, string> = { king: 'k', queen: 'q', rook: 'r', bishop: 'b', knight: 'n', pawn: 'p' };
const PROMO_ROLE: Record<string, PromotionRole> = { q: 'queen', r: 'rook', b: 'bishop', n: 'knight' };

/** Writes a board as the placement field of a FEN. */
export function placementOf(board: ReadonlyMap<string, Piece>): string {
  const rows: string[] = [];
  for (let rank = 8; rank >= 1; rank--) {
    let row = '';
    let empty = 0;
    for (let file = 0; file < 8; file++) {
      const p = board.get(String.fromCharCode(97 + file) + rank);
      if (!p) {
        empty++;
        continue;
      }
      if (empty) row += String(empty);
      empty = 0;
      const c = FEN_CHAR[p.role];
      row += p.white ? c.toUpperCase() : c;
    }
    rows.push(empty ? row + String(empty) : row);
  }
  return rows.join('/');
}

/**
 * Moves the pieces of one move the server already accepted, given in UCI
 * (castling as `e1g1` or king-takes-rook `e1h1`, promotion `e7e8q`). This
 * only redraws past positions for viewing; it checks nothing.
 */
export function applyUci(board: Map<string, Piece>, uci: string): void {
  const from = uci.slice(0, 2);
  const to = uci.slice(2, 4);
  const piece = board.get(from);
  if (!piece) return;
  const target = board.get(to);
  const rank = from[1]!;
  const fileDelta = to.charCodeAt(0) - from.charCodeAt(0);
  if (piece.role === 'king' && to[1] === rank && ((target?.role === 'rook' && target.white === piece.white) || Math.abs(fileDelta) === 2)) {
    const kingside = fileDelta > 0;
    const rookFrom = target?.role === 'rook' && target.white === piece.white ? to : (kingside ? 'h' : 'a') + rank;
    const rook = board.get(rookFrom);
    board.delete(from);
    board.delete(rookFrom);
    board.set((kingside ? 'g' : 'c') + rank, piece);
    if (rook) board.set((kingside ? 'f' : 'd') + rank, rook);
    return;
  }
  if (piece.role === 'pawn' && fileDelta !== 0 && !target) board.delete(to[0]! + rank);
  board.delete(from);
  const promo = PROMO_ROLE[uci[4] ?? ''];
  board.set(to, promo ? { role: promo, white: piece.white } : piece);
}

/** Placement fields of every position of a game: index 0 is the start, index n follows the n-th move. */
export function positionsOf(initialFen: string, ucis: readonly string[]): string[] {
  const { board } = parseFen(initialFen);
  const out = [placementOf(board)];
  for (const uci of ucis) {
    applyUci(board, uci);
    out.push(placementOf(board));
  }
  return out;
}

/** Order in which pieces are listed when a position is described in words. */
const DESCRIBE_ORDER: readonly Role[] = ['king', 'queen', 'rook', 'bishop', 'knight', 'pawn'];

/** The squares of each side's pieces in a placement, king first, squares in a1…h8 order. */
export function describePosition(fenOrPlacement: string): Record<'white' | 'black', Array<[Role, string[]]>> {
  const { board } = parseFen(fenOrPlacement);
  const out: Record<'white' | 'black', Array<[Role, string[]]>> = { white: [], black: [] };
  for (const side of ['white', 'black'] as const) {
    for (const role of DESCRIBE_ORDER) {
      const squares = [...board.entries()]
        .filter(([, p]) => p.role === role && p.white === (side === 'white'))
        .map(([sq]) => sq)
        .sort();
      if (squares.length > 0) out[side].push([role, squares]);
    }
  }
  return out;
}
