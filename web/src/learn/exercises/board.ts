//! The exercises' board: a chessground whose legal moves are exactly the
//! server's list for the position shown, the promotion choice when one
//! square pair stands for several moves, and the pure helpers behind it.
import { Chessground } from '@lichess-org/chessground';
import type { Api } from '@lichess-org/chessground/api';
import type { Config } from '@lichess-org/chessground/config';
import type { DrawShape } from '@lichess-org/chessground/draw';
import type { Key } from '@lichess-org/chessground/types';
import { h, type VNode } from 'snabbdom';
import type { Color } from '../../api.js';
import { type Key as I18nKey, t } from '../../i18n.js';
import type { LegalMove } from './api.js';
import { destsOf, lastMoveOf, turnOf } from './moves.js';

export { bareSan, destsOf, movesBetween, turnOf } from './moves.js';

/** What the board shows. `moves` null: nothing may be moved. */
export interface BoardView {
  fen: string;
  orientation: Color;
  moves: readonly LegalMove[] | null;
  lastMove?: string | null;
  check?: boolean;
  shapes?: DrawShape[];
}

/** A chessground showing a `BoardView`; `onMove` gets the from/to squares the user chose. */
export class ExerciseBoard {
  private ground: Api | null = null;
  private el: HTMLElement | null = null;
  private view: BoardView;
  /** Called with every square the reader clicks (for marking squares). */
  onSquare: ((square: string) => void) | null = null;

  constructor(
    initial: BoardView,
    private readonly onMove: (from: string, to: string) => void,
  ) {
    this.view = initial;
  }

  /** The board element, mounted and disposed by snabbdom hooks. */
  vnode(label: string): VNode {
    return h('div.exercise-board-frame', [
      h('div.exercise-board', {
        key: 'exercise-board',
        attrs: { 'data-testid': 'exercise-board', role: 'img', 'aria-label': label, ...this.dataAttrs() },
        hook: {
          insert: (v) => this.mount(v.elm as HTMLElement),
          destroy: () => this.unmount(),
        },
      }),
    ]);
  }

  /** The position shown and whether it takes moves, for tests and styles. */
  private dataAttrs(): Record<string, string> {
    return { 'data-fen': this.view.fen, 'data-movable': String(this.view.moves !== null) };
  }

  /** Shows `view` (on the mounted board, or when it is mounted). */
  show(view: BoardView): void {
    this.view = view;
    for (const [k, v] of Object.entries(this.dataAttrs())) this.el?.setAttribute(k, v);
    this.ground?.set(this.config());
    this.ground?.setAutoShapes(view.shapes ?? []);
  }

  /** Draws `shapes` on the position shown. */
  shapes(shapes: DrawShape[]): void {
    this.view = { ...this.view, shapes };
    this.ground?.setAutoShapes(shapes);
  }

  private config(): Config {
    const v = this.view;
    const turn = turnOf(v.fen);
    const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    return {
      fen: v.fen,
      orientation: v.orientation,
      turnColor: turn,
      check: v.check ? turn : false,
      lastMove: lastMoveOf(v.lastMove) as Key[] | undefined,
      coordinates: true,
      autoCastle: true,
      animation: { enabled: !reduced, duration: 160 },
      highlight: { lastMove: true, check: true },
      movable: { free: false, color: v.moves ? turn : undefined, dests: destsOf(v.moves ?? []), showDests: true },
      premovable: { enabled: false },
      draggable: { enabled: true, showGhost: true },
      selectable: { enabled: true },
      drawable: { enabled: true, visible: true },
    };
  }

  private mount(el: HTMLElement): void {
    this.el = el;
    const config = this.config();
    this.ground = Chessground(el, {
      ...config,
      movable: { ...config.movable, events: { after: (orig, dest) => this.onMove(orig, dest) } },
      events: { select: (key) => this.onSquare?.(key) },
    });
    this.ground.setAutoShapes(this.view.shapes ?? []);
    remeasureOnPress(el, () => this.ground);
  }

  private unmount(): void {
    this.ground?.destroy();
    this.ground = null;
    this.el = null;
  }
}

/**
 * Makes chessground measure the board again at each press: it keeps the
 * board's screen position from its first use and forgets it only on
 * scroll or resize, but a Learn page moves the board without either (the
 * header, diagrams and texts above it settle after it is mounted), and a
 * stale position sends clicks to the wrong squares.
 */
export function remeasureOnPress(el: HTMLElement, ground: () => Api | null): void {
  const clear = () => ground()?.state.dom.bounds.clear();
  el.addEventListener('mousedown', clear, { capture: true, passive: true });
  el.addEventListener('touchstart', clear, { capture: true, passive: true });
}

const PROMOTION_ORDER = ['q', 'r', 'b', 'n'] as const;
const ROLE_OF: Record<string, string> = { q: 'queen', r: 'rook', b: 'bishop', n: 'knight' };

/** The promotion choice over the board for `choices` (moves differing only by the piece). */
export function promotionView(color: Color, choices: readonly LegalMove[], pick: (m: LegalMove | null) => void): VNode {
  const sorted = PROMOTION_ORDER.map((p) => choices.find((m) => m.uci[4] === p)).filter((m): m is LegalMove => !!m);
  return h('div.promotion', { attrs: { role: 'dialog', 'aria-modal': 'true', 'data-testid': 'promotion' } }, [
    h('p.promo-title', t('promotion.title')),
    h(
      'div.promo-choices.cg-wrap',
      sorted.map((m) => {
        const role = ROLE_OF[m.uci[4]!]!;
        const name = t(`piece.${role}` as I18nKey);
        return h('button.promo-choice', { attrs: { type: 'button', 'aria-label': name, title: name, 'data-testid': `promotion-${role}` }, on: { click: () => pick(m) } }, [
          h(`piece.${color}.${role}`),
        ]);
      }),
    ),
    h('button.promo-cancel', { attrs: { type: 'button' }, on: { click: () => pick(null) } }, t('promotion.cancel')),
  ]);
}
