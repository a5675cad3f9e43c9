//! The exercise board drills, puzzles and replay share: one position at a
//! time from the server (shown at once, its legal moves asked for with
//! /api/positions/inspect, the latest request winning), the reader's move
//! on the board with the promotion choice when one square pair stands for
//! several moves, the move shown while the exercise waits for its
//! judgement, and the lock once the exercise is over. The exercise decides
//! what a move means.
import type { DrawShape } from '@lichess-org/chessground/draw';
import { h, type VNode } from 'snabbdom';
import type { Color } from '../../api.js';
import { t } from '../../i18n.js';
import { inspect, type Inspection, type LegalMove } from './api.js';
import { ExerciseBoard, movesBetween, promotionView, turnOf } from './board.js';

/** What the board asks of its exercise. */
export interface PlayHost {
  /** The reader chose `m`, one of the legal moves of the position shown. */
  play(m: LegalMove): void;
  redraw(): void;
  /** A request failed, or the server refused the position. */
  fail(e: unknown): void;
  /** Is the exercise still mounted? */
  alive(): boolean;
}

/** A position the board shows. */
export interface Shown {
  fen: string;
  /** The move that led to it (UCI), highlighted. */
  lastMove?: string | null;
  /** The side to move is in check. */
  check?: boolean;
}

/** The shared exercise board. */
export class PlayBoard {
  /** The position shown. */
  fen: string;
  lastMove: string | null = null;
  check = false;
  /** Its legal moves, once the server has given them (null meanwhile). */
  moves: LegalMove[] | null = null;
  /** Nothing may be moved (the exercise is over). */
  locked = false;
  orientation: Color;
  /** The moves between the squares the reader chose, while the promotion choice is open. */
  promotion: LegalMove[] | null = null;
  private readonly board: ExerciseBoard;
  /** Counts the positions asked for: only the latest answer is used. */
  private asked = 0;

  constructor(
    fen: string,
    orientation: Color,
    private readonly host: PlayHost,
  ) {
    this.fen = fen;
    this.orientation = orientation;
    this.board = new ExerciseBoard({ fen, orientation, moves: null }, (from, to) => this.onBoardMove(from, to));
  }

  /**
   * Shows `p` (nothing movable yet), asks the server for its legal moves
   * and offers them unless `locked`; answers the inspection, or null when
   * the position was refused, the request failed (the host was told) or
   * another position was asked for meanwhile.
   */
  async goTo(p: Shown, locked = false): Promise<Inspection | null> {
    const mine = ++this.asked;
    this.fen = p.fen;
    this.lastMove = p.lastMove ?? null;
    this.check = p.check ?? false;
    this.locked = locked;
    this.moves = null;
    this.board.show({ fen: this.fen, orientation: this.orientation, moves: null, lastMove: this.lastMove });
    try {
      const r = await inspect(p.fen);
      if (!this.host.alive() || mine !== this.asked) return null;
      if (!r.valid) {
        this.host.fail(r.error);
        return null;
      }
      if (!r.moves) {
        this.host.fail(t('ex.error.noMoves'));
        return null;
      }
      this.moves = r.moves;
      this.show();
      return r;
    } catch (e) {
      this.host.fail(e);
      return null;
    }
  }

  /** Shows the position again as it stands (its moves unless locked), with `shapes` drawn. */
  show(shapes: DrawShape[] = []): void {
    this.board.show({ fen: this.fen, orientation: this.orientation, moves: this.locked ? null : this.moves, lastMove: this.lastMove, check: this.check, shapes });
  }

  /** Shows move `m` played, nothing movable, while the exercise waits for the server's judgement. */
  pending(m: LegalMove): void {
    this.promotion = null;
    this.moves = null;
    this.board.show({ fen: m.fen, orientation: this.orientation, moves: null, lastMove: m.uci });
  }

  /** Ends the exercise at position `at` (null: the one shown), drawn with `shapes`: no more moves. */
  end(at: Shown | null, shapes: DrawShape[] = []): void {
    if (at) {
      this.asked++;
      this.fen = at.fen;
      this.lastMove = at.lastMove ?? null;
      this.check = at.check ?? false;
    }
    this.locked = true;
    this.promotion = null;
    this.show(shapes);
  }

  /** Draws `shapes` on the position shown. */
  shapes(shapes: DrawShape[]): void {
    this.board.shapes(shapes);
  }

  private onBoardMove(from: string, to: string): void {
    const choices = movesBetween(this.locked ? [] : (this.moves ?? []), from, to);
    if (choices.length > 1) {
      this.promotion = choices;
      this.host.redraw();
    } else if (choices.length === 1) this.choose(choices[0]!);
  }

  private choose(m: LegalMove | null): void {
    this.promotion = null;
    if (m) return this.host.play(m);
    this.show();
    this.host.redraw();
  }

  /** The board with the promotion choice over it. */
  vnode(): VNode {
    return h('div.ex-board-holder', [this.board.vnode(t('ex.board')), this.promotion ? promotionView(turnOf(this.fen), this.promotion, (m) => this.choose(m)) : null]);
  }
}
