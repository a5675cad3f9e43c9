//! Exercise "replay": the reader plays the worked example's moves, both
//! sides, from memory. Each move must be legal (the server's move list) and
//! be the game's move (compared by SAN with the line in the content block);
//! the exercise ends at the last move, where the server confirms the mate.
import { h, type VNode } from 'snabbdom';
import type { Color } from '../../api.js';
import { t } from '../../i18n.js';
import { inspect, type LegalMove } from './api.js';
import { ExerciseBoard, movesBetween, promotionView, turnOf } from './board.js';
import { sameMove } from './line.js';
import { markDone } from './progress.js';
import { button, Exercise, feedbackView, san } from './widget.js';

/** The replay exercise. */
export class Replay extends Exercise {
  private fen: string;
  private moves: LegalMove[] | null = null;
  private played: LegalMove[] = [];
  private finished = false;
  private promotion: LegalMove[] | null = null;
  private readonly board: ExerciseBoard;
  private readonly orientation: Color;

  constructor(
    root: HTMLElement,
    private readonly startFen: string,
    private readonly line: readonly string[],
  ) {
    super(root, 'ex:replay');
    this.fen = startFen;
    this.orientation = turnOf(startFen);
    this.board = new ExerciseBoard({ fen: startFen, orientation: this.orientation, moves: null }, (from, to) => this.onBoardMove(from, to));
    this.say('info', t('ex.replay.start'));
    this.redraw();
    void this.load(startFen, null);
  }

  protected heading(): string {
    return t('ex.replay.title');
  }

  /** Shows `fen` and asks the server for its legal moves. */
  private async load(fen: string, last: LegalMove | null): Promise<void> {
    this.fen = fen;
    this.moves = null;
    this.board.show({ fen, orientation: this.orientation, moves: null, lastMove: last?.uci });
    try {
      const r = await inspect(fen);
      if (!this.alive || this.fen !== fen) return;
      if (!r.valid) return this.fail(r.error);
      if (!r.moves) return this.fail(t('ex.error.noMoves'));
      const over = this.played.length === this.line.length;
      this.moves = over ? null : r.moves;
      this.board.show({ fen, orientation: this.orientation, moves: this.moves, lastMove: last?.uci, check: /[+#]$/.test(last?.san ?? '') });
      if (over) return this.finish(r.status);
      this.redraw();
    } catch (e) {
      this.fail(e);
    }
  }

  private onBoardMove(from: string, to: string): void {
    const choices = movesBetween(this.moves ?? [], from, to);
    if (choices.length > 1) {
      this.promotion = choices;
      this.redraw();
    } else if (choices.length === 1) this.play(choices[0]!);
  }

  private play(m: LegalMove): void {
    this.promotion = null;
    const expected = this.line[this.played.length];
    if (expected === undefined || !sameMove(m.san, expected)) {
      this.say('bad', t('ex.replay.wrong', { move: san(m.san) }));
      this.board.show({ fen: this.fen, orientation: this.orientation, moves: this.moves, lastMove: this.played.at(-1)?.uci });
      this.redraw();
      return;
    }
    this.played.push(m);
    this.say('ok', t('ex.replay.right', { move: san(m.san) }));
    this.redraw();
    void this.load(m.fen, m);
  }

  private finish(status: string): void {
    this.finished = true;
    this.say('ok', status === 'checkmate' ? t('ex.replay.mate') : t('ex.replay.complete'));
    void markDone(this.progressKey);
    this.redraw();
  }

  private restart(): void {
    this.played = [];
    this.finished = false;
    this.promotion = null;
    this.say('info', t('ex.replay.start'));
    this.redraw();
    void this.load(this.startFen, null);
  }

  /** Reveals the next move of the line (the reader asked for it). */
  private reveal(): void {
    const next = this.line[this.played.length];
    if (next !== undefined) this.say('info', t('ex.replay.next', { move: san(next) }));
    this.redraw();
  }

  protected render(): VNode {
    const n = this.played.length;
    return h('div.ex-body', [
      h('div.ex-board-col', [
        h('div.ex-board-holder', [this.board.vnode(t('ex.board')), this.promotion ? promotionView(turnOf(this.fen), this.promotion, (m) => (m ? this.play(m) : this.cancelPromotion())) : null]),
      ]),
      h('div.ex-side', [
        h('p.ex-progress', { attrs: { 'data-testid': 'replay-progress' } }, t('ex.replay.progress', { done: n, total: this.line.length })),
        h('ol.ex-line', { attrs: { 'data-testid': 'replay-moves' } }, movePairs(this.played)),
        feedbackView(this.feedback),
        h('div.ex-actions', [
          button(t('ex.replay.restart'), () => this.restart(), { testid: 'replay-restart' }),
          this.finished ? null : button(t('ex.replay.reveal'), () => this.reveal(), { testid: 'replay-reveal' }),
        ]),
      ]),
    ]);
  }

  private cancelPromotion(): void {
    this.promotion = null;
    this.board.show({ fen: this.fen, orientation: this.orientation, moves: this.moves, lastMove: this.played.at(-1)?.uci });
    this.redraw();
  }
}

function movePairs(moves: readonly LegalMove[]): VNode[] {
  const out: VNode[] = [];
  for (let i = 0; i < moves.length; i += 2) {
    const pair = moves.slice(i, i + 2).map((m) => san(m.san));
    out.push(h('li', pair.join(' ')));
  }
  return out;
}
