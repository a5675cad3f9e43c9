//! Exercise "replay": the reader plays the worked example's moves, both
//! sides, from memory. Each move must be legal (the server's move list) and
//! be the game's move (compared by SAN with the line in the content block);
//! the exercise ends at the last move, where the server confirms the mate.
import { h, type VNode } from 'snabbdom';
import { t } from '../../i18n.js';
import type { LegalMove } from './api.js';
import { turnOf } from './board.js';
import { sameMove } from './line.js';
import { PlayBoard } from './play.js';
import { markDone } from './progress.js';
import { button, Exercise, feedbackView, san } from './widget.js';

/** The replay exercise. */
export class Replay extends Exercise {
  private played: LegalMove[] = [];
  private finished = false;
  private readonly board: PlayBoard;

  constructor(
    root: HTMLElement,
    private readonly startFen: string,
    private readonly line: readonly string[],
  ) {
    super(root, 'ex:replay');
    this.board = new PlayBoard(startFen, turnOf(startFen), {
      play: (m) => this.play(m),
      redraw: () => this.redraw(),
      fail: (e) => this.fail(e),
      alive: () => this.alive,
    });
    this.say('info', t('ex.replay.start'));
    this.redraw();
    void this.load(startFen, null);
  }

  protected heading(): string {
    return t('ex.replay.title');
  }

  /** Shows `fen` and asks the server for its legal moves (none offered after the line's last move). */
  private async load(fen: string, last: LegalMove | null): Promise<void> {
    const over = this.played.length === this.line.length;
    const r = await this.board.goTo({ fen, lastMove: last?.uci, check: /[+#]$/.test(last?.san ?? '') }, over);
    if (!r) return;
    if (over) return this.finish(r.status);
    this.redraw();
  }

  private play(m: LegalMove): void {
    const expected = this.line[this.played.length];
    if (expected === undefined || !sameMove(m.san, expected)) {
      this.say('bad', t('ex.replay.wrong', { move: san(m.san) }));
      this.board.show();
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
    this.board.promotion = null;
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
      h('div.ex-board-col', [this.board.vnode()]),
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
}

function movePairs(moves: readonly LegalMove[]): VNode[] {
  const out: VNode[] = [];
  for (let i = 0; i < moves.length; i += 2) {
    const pair = moves.slice(i, i + 2).map((m) => san(m.san));
    out.push(h('li', pair.join(' ')));
  }
  return out;
}
