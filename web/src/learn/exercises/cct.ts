//! Exercise "checks-captures-threats": for the block's position the reader
//! ticks every legal move that gives check and every capture (the legal
//! moves are listed from the server, named by piece and squares so that no
//! `+` or `x` gives the answer away), and clicks on the board each square
//! the opponent threatens (a mate in one or a capture winning material, were
//! it the opponent's turn). "Check" compares with the server's complete
//! sets: it names the reader's wrong marks but only counts what is missing,
//! so that checking gives no answer away. Then the reader picks two
//! candidate moves and sees the engine's strongest reply to each.
import type { DrawShape } from '@lichess-org/chessground/draw';
import { h, type VNode } from 'snabbdom';
import { t } from '../../i18n.js';
import { type Inspection, inspect, type LegalMove, type Reply, strongestReply } from './api.js';
import { ExerciseBoard, turnOf } from './board.js';
import { compareMarks, type Comparison, plainMove, threatSquare } from './marks.js';
import { markDone } from './progress.js';
import { button, Exercise, errorText, feedbackView, san, statusText } from './widget.js';

/** The score of a reply in words, from the replying side's view. */
function scoreText(r: Reply): string {
  if (r.score?.mate !== undefined) return t('ex.cct.scoreMate', { moves: Math.abs(r.score.mate) });
  if (r.score?.cp !== undefined) return t('ex.cct.scoreCp', { pawns: (r.score.cp / 100).toFixed(1) });
  return '';
}

/** The checks/captures/threats exercise. */
export class ChecksCapturesThreats extends Exercise {
  private facts: Inspection | null = null;
  private readonly checks = new Set<string>();
  private readonly captures = new Set<string>();
  private readonly threatSquares = new Set<string>();
  private result: Comparison | null = null;
  private candidates: [string, string] = ['', ''];
  private replies: Array<{ move: LegalMove; reply: Reply | null; error?: string }> = [];
  private readonly board: ExerciseBoard;

  constructor(
    root: HTMLElement,
    private readonly fen: string,
  ) {
    super(root, 'ex:checks-captures-threats');
    this.board = new ExerciseBoard({ fen, orientation: turnOf(fen), moves: null }, () => undefined);
    this.board.onSquare = (sq) => this.toggleThreat(sq);
    this.say('info', t('ex.cct.start'));
    this.redraw();
    void this.load();
  }

  protected heading(): string {
    return t('ex.cct.title');
  }

  private async load(): Promise<void> {
    try {
      const r = await inspect(this.fen);
      if (!this.alive) return;
      if (!r.valid) return this.fail(r.error);
      if (!r.moves) return this.fail(t('ex.error.noMoves'));
      this.facts = r;
      this.redraw();
    } catch (e) {
      this.fail(e);
    }
  }

  private get moves(): LegalMove[] {
    return this.facts?.moves ?? [];
  }

  private toggle(set: Set<string>, uci: string): void {
    if (set.has(uci)) set.delete(uci);
    else set.add(uci);
    this.redraw();
  }

  private toggleThreat(sq: string): void {
    this.toggle(this.threatSquares, sq);
    this.drawMarks();
  }

  private drawMarks(): void {
    const shapes: DrawShape[] = [...this.threatSquares].map((s) => ({ orig: s as DrawShape['orig'], brush: 'red' }));
    for (const r of this.replies) {
      shapes.push({ orig: r.move.uci.slice(0, 2) as DrawShape['orig'], dest: r.move.uci.slice(2, 4) as DrawShape['orig'], brush: 'green' });
      if (r.reply?.uci) shapes.push({ orig: r.reply.uci.slice(0, 2) as DrawShape['orig'], dest: r.reply.uci.slice(2, 4) as DrawShape['orig'], brush: 'blue' });
    }
    this.board.shapes(shapes);
  }

  private check(): void {
    if (!this.facts) return;
    this.result = compareMarks(this.facts, { checks: this.checks, captures: this.captures, threatSquares: this.threatSquares });
    const r = this.result;
    if (r.complete) {
      this.say('ok', t('ex.cct.complete'), t('ex.cct.nowCandidates'));
      void markDone(this.progressKey);
    } else this.say('bad', ...this.mistakes(r));
    this.redraw();
  }

  private sanOf(uci: string): string {
    const m = this.moves.find((x) => x.uci === uci);
    return m ? san(m.san) : uci;
  }

  /**
   * What is wrong, without giving the answer away: the reader's own wrong
   * marks are named, what is missing only counted.
   */
  private mistakes(r: Comparison): string[] {
    const lines: string[] = [];
    if (r.missingChecks.length) lines.push(t('ex.cct.missingChecks', { n: r.missingChecks.length }));
    for (const u of r.wrongChecks) lines.push(t('ex.cct.notCheck', { move: this.sanOf(u) }));
    if (r.missingCaptures.length) lines.push(t('ex.cct.missingCaptures', { n: r.missingCaptures.length }));
    for (const u of r.wrongCaptures) lines.push(t('ex.cct.notCapture', { move: this.sanOf(u) }));
    const squares = new Set(r.missingThreats.map(threatSquare));
    if (squares.size) lines.push(t('ex.cct.missingThreats', { n: squares.size }));
    for (const sq of r.wrongThreatSquares) lines.push(t('ex.cct.notThreat', { square: sq }));
    return lines;
  }

  private async showReplies(): Promise<void> {
    const picked = this.candidates.map((u) => this.moves.find((m) => m.uci === u)).filter((m): m is LegalMove => !!m);
    if (picked.length !== 2 || picked[0]!.uci === picked[1]!.uci) {
      this.say('bad', t('ex.cct.pickTwo'));
      return this.redraw();
    }
    this.busy = true;
    this.redraw();
    this.replies = await Promise.all(
      picked.map(async (move) => {
        try {
          return { move, reply: await strongestReply(this.fen, move.uci) };
        } catch (e) {
          return { move, reply: null, error: errorText(e) };
        }
      }),
    );
    if (!this.alive) return;
    this.busy = false;
    this.drawMarks();
    this.redraw();
  }

  protected render(): VNode {
    const turn = turnOf(this.fen);
    return h('div.ex-body', [
      h('div.ex-board-col', [h('div.ex-board-holder', [this.board.vnode(t('ex.board'))]), h('p.ex-note.muted', t('ex.cct.threatHelp'))]),
      h('div.ex-side', [
        h('p.ex-turn-line', t('ex.toMove', { color: t(`color.${turn}`) })),
        this.moveTable(),
        h('p.ex-threats', { attrs: { 'data-testid': 'cct-threat-squares' } }, t('ex.cct.threatSquares', { squares: [...this.threatSquares].sort().join(' ') || '–' })),
        h('div.ex-actions', [button(t('ex.check'), () => this.check(), { testid: 'exercise-check', primary: true, disabled: !this.facts })]),
        feedbackView(this.feedback, this.busy),
        this.candidatesView(),
      ]),
    ]);
  }

  private moveTable(): VNode {
    if (!this.facts) return h('p.muted', t('ex.wait'));
    return h('div.ex-moves-wrap', [h('table.ex-moves', [
      h('thead', [h('tr', [h('th', t('ex.cct.move')), h('th', t('ex.cct.check')), h('th', t('ex.cct.capture'))])]),
      h(
        'tbody',
        this.moves.map((m) =>
          h('tr', { key: m.uci, attrs: { 'data-testid': 'cct-move', 'data-uci': m.uci } }, [
            h('td.ex-san', { attrs: { 'data-testid': 'cct-move-name' } }, san(plainMove(m))),
            h('td', [this.box(this.checks, m, 'check')]),
            h('td', [this.box(this.captures, m, 'capture')]),
          ]),
        ),
      ),
    ])]);
  }

  private box(set: Set<string>, m: LegalMove, kind: 'check' | 'capture'): VNode {
    return h('input', {
      attrs: { type: 'checkbox', 'data-testid': `cct-${kind}-${m.uci}`, 'aria-label': t(kind === 'check' ? 'ex.cct.isCheck' : 'ex.cct.isCapture', { move: san(plainMove(m)) }) },
      props: { checked: set.has(m.uci) },
      on: { change: () => this.toggle(set, m.uci) },
    });
  }

  private candidatesView(): VNode | null {
    if (!this.result?.complete) return null;
    const select = (i: 0 | 1) =>
      h(
        'select',
        {
          attrs: { 'data-testid': `cct-candidate-${i + 1}`, 'aria-label': t('ex.cct.candidate', { n: i + 1 }) },
          props: { value: this.candidates[i] },
          on: { change: (e: Event) => ((this.candidates[i] = (e.target as HTMLSelectElement).value), this.redraw()) },
        },
        [h('option', { attrs: { value: '' } }, '—'), ...this.moves.map((m) => h('option', { attrs: { value: m.uci }, props: { selected: this.candidates[i] === m.uci } }, san(m.san)))],
      );
    return h('section.ex-candidates', [
      h('h3', t('ex.cct.candidatesTitle')),
      h('div.ex-actions', [select(0), select(1), button(t('ex.cct.showReplies'), () => void this.showReplies(), { testid: 'cct-replies', disabled: this.busy })]),
      h(
        'ul.ex-replies',
        this.replies.map((r) =>
          h('li', { attrs: { 'data-testid': 'cct-reply', 'data-uci': r.move.uci } }, this.replyText(r)),
        ),
      ),
    ]);
  }

  private replyText(r: { move: LegalMove; reply: Reply | null; error?: string }): string {
    const move = san(r.move.san);
    if (r.error) return `${move}: ${r.error}`;
    if (!r.reply?.uci) return t('ex.cct.ends', { move, status: statusText(r.reply?.status ?? 'ongoing') });
    const line = (r.reply.line ?? []).map(san).join(' ');
    return t('ex.cct.reply', { move, reply: san(r.reply.san ?? r.reply.uci), score: scoreText(r.reply), line: line || '–' });
  }
}
