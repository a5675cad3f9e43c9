//! Board configuration as a pure function of the game state and the view
//! options (orientation, whether a move is in flight). Nothing here touches
//! the DOM, so it is tested directly.
import type { Config } from '@lichess-org/chessground/config';
import type { Key } from '@lichess-org/chessground/types';
import type { Color, GameState } from './api.js';
import { parseFen, positionsOf } from './notation.js';

/** What the view adds to the game state. */
export interface ViewOptions {
  orientation: Color;
  /** A move of ours was sent and is not yet answered: the board is frozen. */
  pending: boolean;
  /** The person asked for less motion: no piece animation. */
  reducedMotion?: boolean;
  /** Showing the position after this many plies instead of the current one (null: the game itself). */
  ply?: number | null;
  /** Moves may be chosen ahead, during the opponent's turn (table games). */
  premoves?: boolean;
  /** Coordinates beside the board (default on). */
  coords?: boolean;
}

/** Is `view` showing an earlier position of `game`? */
export function viewingHistory(game: GameState, view: Pick<ViewOptions, 'ply'>): view is { ply: number } {
  return view.ply !== null && view.ply !== undefined && view.ply >= 0 && view.ply < game.moves.length;
}

/** Is it the viewer's turn to move, with the board accepting a move? */
export function canMove(game: GameState, pending: boolean): boolean {
  return game.status === 'ongoing' && game.you !== null && game.turn === game.you && !game.thinking && !pending;
}

/** The dests map in chessground's form. */
export function toDests(dests: Record<string, readonly string[]>): Map<Key, Key[]> {
  const m = new Map<Key, Key[]>();
  for (const [from, tos] of Object.entries(dests)) {
    if (tos.length > 0) m.set(from as Key, tos.map((t) => t as Key));
  }
  return m;
}

/** Full chessground configuration for `game` as seen with `view`. */
export function boardConfig(game: GameState, view: ViewOptions): Config {
  if (viewingHistory(game, view)) return historyConfig(game, view.ply, view.orientation);
  const movable = canMove(game, view.pending);
  // With premoves the player's pieces stay movable during the opponent's turn (chessground then premoves them).
  const premoves = !!view.premoves && game.status === 'ongoing' && game.you !== null;
  return {
    fen: game.fen,
    orientation: view.orientation,
    turnColor: game.turn,
    check: game.check ? game.turn : false,
    lastMove: game.last_move ? (game.last_move.map((k) => k as Key)) : undefined,
    viewOnly: game.you === null,
    coordinates: view.coords ?? true,
    autoCastle: true,
    highlight: { lastMove: true, check: true },
    animation: { enabled: !view.reducedMotion, duration: 180 },
    movable: {
      free: false,
      color: movable || premoves ? (game.you ?? undefined) : undefined,
      dests: movable ? toDests(game.dests) : new Map(),
      showDests: true,
      // Standard games list castling both ways; show only the king's target square.
      rookCastle: game.variant === 'chess960',
    },
    premovable: { enabled: premoves, showDests: true, castle: true },
    draggable: { enabled: true, showGhost: true },
    selectable: { enabled: true },
    drawable: { enabled: true, visible: true },
  };
}

/** A view-only board showing the position after `ply` plies of `game`. */
function historyConfig(game: GameState, ply: number, orientation: Color): Config {
  const placement = positionsOf(
    game.initial_fen,
    game.moves.slice(0, ply).map((m) => m.uci),
  )[ply]!;
  const last = ply > 0 ? game.moves[ply - 1]! : null;
  const toMove = colorOfPly(game.initial_fen, ply);
  return {
    fen: placement,
    orientation,
    turnColor: toMove,
    check: last !== null && /[+#]$/.test(last.san) ? toMove : false,
    lastMove: last ? [last.uci.slice(0, 2) as Key, last.uci.slice(2, 4) as Key] : undefined,
    viewOnly: game.you === null,
    movable: { free: false, color: undefined, dests: new Map(), showDests: true },
    premovable: { enabled: false },
  };
}

/** Does the move from→to in `game` bring a pawn to the last rank (so the player must choose a piece)? */
export function isPromotion(game: GameState, from: string, to: string): boolean {
  const piece = parseFen(game.fen).board.get(from);
  return piece?.role === 'pawn' && (to[1] === '8' || to[1] === '1') && (game.dests[from] ?? []).includes(to);
}

/** Colour that played ply `index` (0-based) of a game starting from `initialFen`. */
export function colorOfPly(initialFen: string, index: number): Color {
  const first: Color = initialFen.split(' ')[1] === 'b' ? 'black' : 'white';
  return index % 2 === 0 ? first : first === 'white' ? 'black' : 'white';
}

/** Reasons for which a finished game may still be taken back (the game ended on the board). */
const BOARD_ENDINGS = new Set([
  'checkmate',
  'stalemate',
  'insufficient_material',
  'threefold_repetition',
  'fivefold_repetition',
  'fifty_moves',
  'seventyfive_moves',
]);

/** Plies never taken back in a game with a clock (as the server keeps them). */
const CLOCKED_KEPT_PLIES = 2;

/**
 * May the viewer take back a move now? They need a move of theirs on the
 * board (with a clock, after the first two plies), and the game must be
 * going on or have ended on the board (not by resignation or time; with a
 * clock, not at all), as docs/protocol.md allows.
 */
export function canUndo(game: GameState): boolean {
  if (game.you === null) return false;
  if (game.status !== 'ongoing' && (game.clock || !BOARD_ENDINGS.has(game.reason ?? ''))) return false;
  // With a clock the first two moves stay: the clocks start with them.
  const kept = game.clock ? CLOCKED_KEPT_PLIES : 0;
  return game.moves.some((_, i) => i >= kept && colorOfPly(game.initial_fen, i) === game.you);
}
