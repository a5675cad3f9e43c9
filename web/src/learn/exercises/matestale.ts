//! Exercise "mate-stalemate": a board editor for two positions, one meant
//! to be checkmate and one stalemate, one change apart (see pairs.ts for
//! the rule). Pieces are placed from a palette by clicking squares, moved
//! by dragging (dropped off the board: removed); each position has its side
//! to move. "Check" asks the server about both positions and judges the
//! pair.
import { Chessground } from '@lichess-org/chessground';
import type { Api } from '@lichess-org/chessground/api';
import type { Key as Sq } from '@lichess-org/chessground/types';
import { h, type VNode } from 'snabbdom';
import type { Color } from '../../api.js';
import { type Key, t } from '../../i18n.js';
import { inspect } from './api.js';
import { remeasureOnPress } from './board.js';
import { builtFen, type Difference, judgePair, type PieceChar, type Placement, placementFromFen, placementToFen, type Verdict } from './pairs.js';
import { markDone } from './progress.js';
import { button, Exercise, feedbackView, statusText } from './widget.js';

type Slot = 'mate' | 'stalemate';
/** What a click on the board does: move pieces, place a piece, or erase. */
type Tool = 'move' | 'erase' | PieceChar;

const PALETTE: readonly PieceChar[] = ['K', 'Q', 'R', 'B', 'N', 'P', 'k', 'q', 'r', 'b', 'n', 'p'];
const ROLE: Record<string, string> = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn' };
const NAME: Record<PieceChar, Key> = {
  K: 'ex.piece.white.king',
  Q: 'ex.piece.white.queen',
  R: 'ex.piece.white.rook',
  B: 'ex.piece.white.bishop',
  N: 'ex.piece.white.knight',
  P: 'ex.piece.white.pawn',
  k: 'ex.piece.black.king',
  q: 'ex.piece.black.queen',
  r: 'ex.piece.black.rook',
  b: 'ex.piece.black.bishop',
  n: 'ex.piece.black.knight',
  p: 'ex.piece.black.pawn',
};

function colorOf(p: PieceChar): Color {
  return p === p.toUpperCase() ? 'white' : 'black';
}

/** "white rook" etc. in the reader's language. */
export function pieceName(p: PieceChar): string {
  return t(NAME[p]);
}

/** A sentence for how the two positions differ. */
export function differenceText(d: Difference): string {
  switch (d.kind) {
    case 'same':
      return t('ex.pair.same');
    case 'added':
      return t('ex.pair.added', { piece: pieceName(d.piece), square: d.square });
    case 'removed':
      return t('ex.pair.removed', { piece: pieceName(d.piece), square: d.square });
    case 'replaced':
      return t('ex.pair.replaced', { from: pieceName(d.from), to: pieceName(d.to), square: d.square });
    case 'moved':
      return t('ex.pair.moved', { piece: pieceName(d.piece), from: d.from, to: d.to });
    case 'more':
      return t('ex.pair.more', { count: d.squares });
  }
}

/** The verdict on one position as a sentence. */
function verdictText(slot: Slot, v: Verdict): string {
  const name = t(slot === 'mate' ? 'ex.pair.matePosition' : 'ex.pair.stalematePosition');
  if (!v.valid) return t('ex.pair.illegal', { name, error: v.error });
  return t('ex.pair.status', { name, status: statusText(v.status) });
}

/** The mate/stalemate builder. */
export class MateStalemate extends Exercise {
  private slot: Slot = 'mate';
  private tool: Tool = 'move';
  private readonly positions: Record<Slot, { placement: Map<string, PieceChar>; turn: Color }> = {
    mate: { placement: new Map(), turn: 'black' },
    stalemate: { placement: new Map(), turn: 'black' },
  };
  private ground: Api | null = null;

  constructor(root: HTMLElement) {
    super(root, 'ex:mate-stalemate');
    this.say('info', t('ex.pair.start'));
    this.redraw();
  }

  protected heading(): string {
    return t('ex.pair.title');
  }

  private get current() {
    return this.positions[this.slot];
  }

  private sync(): void {
    this.ground?.set({
      fen: placementToFen(this.current.placement),
      movable: { free: true, color: this.tool === 'move' ? 'both' : undefined },
      draggable: { enabled: this.tool === 'move', deleteOnDropOff: true },
    });
  }

  private mount(el: HTMLElement): void {
    this.ground = Chessground(el, {
      fen: placementToFen(this.current.placement),
      orientation: 'white',
      coordinates: true,
      animation: { enabled: false },
      highlight: { lastMove: false, check: false },
      movable: { free: true, color: this.tool === 'move' ? 'both' : undefined, showDests: false },
      premovable: { enabled: false },
      draggable: { enabled: true, deleteOnDropOff: true, showGhost: true },
      selectable: { enabled: true },
      drawable: { enabled: false },
      events: {
        change: () => this.readBoard(),
        select: (key) => this.apply(key),
      },
    });
    remeasureOnPress(el, () => this.ground);
  }

  /** Takes the placement from the board after the reader dragged pieces. */
  private readBoard(): void {
    if (!this.ground) return;
    const p = placementFromFen(this.ground.getFen());
    if (p && placementToFen(p) !== placementToFen(this.current.placement)) {
      this.current.placement = p;
      this.redraw();
    }
  }

  /** A click on `key` with the palette tool. */
  private apply(key: Sq): void {
    if (this.tool === 'move') return;
    const p = this.current.placement;
    if (this.tool === 'erase' || p.get(key) === this.tool) p.delete(key);
    else p.set(key, this.tool);
    this.sync();
    this.redraw();
  }

  private choose(tool: Tool): void {
    this.tool = tool;
    this.sync();
    this.redraw();
  }

  private switchTo(slot: Slot): void {
    this.slot = slot;
    this.sync();
    this.redraw();
  }

  private copyOther(): void {
    const from = this.positions[this.slot === 'mate' ? 'stalemate' : 'mate'];
    this.positions[this.slot] = { placement: new Map(from.placement), turn: from.turn };
    this.sync();
    this.redraw();
  }

  private clear(): void {
    this.current.placement = new Map();
    this.sync();
    this.redraw();
  }

  private async check(): Promise<void> {
    this.busy = true;
    this.redraw();
    try {
      const [mate, stalemate] = await Promise.all((['mate', 'stalemate'] as const).map((s) => this.verdict(s)));
      if (!this.alive) return;
      const j = judgePair(
        { ...this.positions.mate, verdict: mate! },
        { ...this.positions.stalemate, verdict: stalemate! },
      );
      const lines = [verdictText('mate', mate!), verdictText('stalemate', stalemate!)];
      if (!j.sameTurn) lines.push(t('ex.pair.turns'));
      lines.push(differenceText(j.difference));
      lines.push(j.pass ? t('ex.pair.pass') : t('ex.pair.notYet'));
      this.busy = false;
      this.say(j.pass ? 'ok' : 'bad', ...lines);
      if (j.pass) void markDone(this.progressKey);
      this.redraw();
    } catch (e) {
      this.fail(e);
    }
  }

  private async verdict(slot: Slot): Promise<Verdict> {
    const pos = this.positions[slot];
    const r = await inspect(builtFen(pos.placement, pos.turn));
    return r.valid ? { valid: true, status: r.status } : { valid: false, error: r.error };
  }

  protected render(): VNode {
    const pos: Placement = this.current.placement;
    return h('div.ex-body', [
      h('div.ex-board-col', [
        h('div.ex-tabs', { attrs: { role: 'group', 'aria-label': t('ex.pair.which') } }, [
          button(t('ex.pair.matePosition'), () => this.switchTo('mate'), { testid: 'builder-mate', pressed: this.slot === 'mate' }),
          button(t('ex.pair.stalematePosition'), () => this.switchTo('stalemate'), { testid: 'builder-stalemate', pressed: this.slot === 'stalemate' }),
        ]),
        h('div.ex-board-holder', [
          h('div.exercise-board-frame', [
            h('div.exercise-board', {
              key: 'builder-board',
              attrs: { 'data-testid': 'exercise-board', 'data-slot': this.slot, 'data-fen': placementToFen(pos), role: 'img', 'aria-label': t('ex.board') },
              hook: { insert: (v) => this.mount(v.elm as HTMLElement), destroy: () => (this.ground?.destroy(), (this.ground = null)) },
            }),
          ]),
        ]),
        this.palette(),
      ]),
      h('div.ex-side', [
        this.turnChoice(),
        h('div.ex-actions', [
          button(t('ex.pair.copy'), () => this.copyOther(), { testid: 'builder-copy' }),
          button(t('ex.pair.clear'), () => this.clear(), { testid: 'builder-clear' }),
        ]),
        h('div.ex-actions', [button(t('ex.check'), () => void this.check(), { testid: 'exercise-check', primary: true, disabled: this.busy })]),
        feedbackView(this.feedback, this.busy),
        h('p.ex-note.muted', t('ex.pair.rule')),
      ]),
    ]);
  }

  private palette(): VNode {
    const tool = (p: PieceChar): VNode =>
      h(
        'button.ex-tool',
        {
          class: { pressed: this.tool === p },
          attrs: { type: 'button', 'data-testid': `palette-${p === p.toUpperCase() ? 'w' : 'b'}${p.toUpperCase()}`, 'aria-pressed': String(this.tool === p), 'aria-label': pieceName(p), title: pieceName(p) },
          on: { click: () => this.choose(p) },
        },
        [h(`piece.${colorOf(p)}.${ROLE[p.toLowerCase()]}`)],
      );
    return h('div.ex-palette', { attrs: { role: 'toolbar', 'aria-label': t('ex.pair.palette') } }, [
      h('div.ex-palette-row', [
        button(t('ex.pair.move'), () => this.choose('move'), { testid: 'palette-move', pressed: this.tool === 'move' }),
        button(t('ex.pair.erase'), () => this.choose('erase'), { testid: 'palette-erase', pressed: this.tool === 'erase' }),
      ]),
      h('div.ex-palette-row.cg-wrap', PALETTE.filter((p) => colorOf(p) === 'white').map(tool)),
      h('div.ex-palette-row.cg-wrap', PALETTE.filter((p) => colorOf(p) === 'black').map(tool)),
    ]);
  }

  private turnChoice(): VNode {
    const name = `turn-${this.slot}`;
    return h('fieldset.ex-turn', [
      h('legend', t('ex.pair.toMove')),
      ...(['white', 'black'] as const).map((c) =>
        h('label', [
          h('input', {
            attrs: { type: 'radio', name, value: c, 'data-testid': `builder-turn-${c}` },
            props: { checked: this.current.turn === c },
            on: { change: () => ((this.current.turn = c), this.redraw()) },
          }),
          ` ${t(`color.${c}`)}`,
        ]),
      ),
    ]);
  }
}
