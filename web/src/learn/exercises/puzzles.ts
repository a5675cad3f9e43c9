//! Exercise "puzzles": mate in one and mate in two from the server's list.
//! The reader plays on the board; the server judges each move (the first
//! must be the puzzle's unique key, the last must mate) and answers with the
//! defender's reply. Two levels of hint (the piece, then its square). A
//! wrong move gives nothing away: it is taken back and the reader tries
//! again. As on lichess a puzzle counts as solved only when solved with no
//! wrong move and no hint; the server judges that and keeps the record
//! (`puzzle:ID`), and the page shows what it said: each puzzle's mark, how
//! many are solved, and the exercise done once every puzzle is.
import type { DrawShape } from '@lichess-org/chessground/draw';
import { h, type VNode } from 'snabbdom';
import { t } from '../../i18n.js';
import { checkPuzzle, type Hint, type LegalMove, type Puzzle, puzzleHint, puzzles } from './api.js';
import { turnOf } from './board.js';
import { PlayBoard, type Shown } from './play.js';
import { firstOpen, isDone, markDone, noteDone } from './progress.js';
import { button, Exercise, feedbackView, roleText, san } from './widget.js';

/** The puzzle being solved. */
interface Attempt {
  puzzle: Puzzle;
  /** Moves so far from the puzzle's position (the reader's and the replies). */
  line: string[];
  over: boolean;
  hint: Hint | null;
  /** A hint was asked for or a wrong move played: solving no longer counts. */
  helped: boolean;
}

/** The puzzles. */
export class Puzzles extends Exercise {
  private list: Puzzle[] | null = null;
  private index = 0;
  private attempt: Attempt | null = null;
  private readonly board: PlayBoard;

  constructor(root: HTMLElement) {
    super(root, 'ex:puzzles');
    this.board = new PlayBoard('8/8/8/8/8/8/8/8 w - - 0 1', 'white', {
      play: (m) => void this.play(m),
      redraw: () => this.redraw(),
      fail: (e) => this.fail(e),
      alive: () => this.alive,
    });
    this.redraw();
    void this.loadList();
  }

  protected heading(): string {
    return t('ex.puzzle.title');
  }

  private async loadList(): Promise<void> {
    try {
      const list = await puzzles();
      if (!this.alive) return;
      this.list = list;
      if (list.length === 0) return this.fail(t('ex.puzzle.none'));
      this.open(firstOpen(list, isDone));
    } catch (e) {
      this.fail(e);
    }
  }

  private open(index: number): void {
    const puzzle = this.list![index]!;
    this.index = index;
    this.attempt = { puzzle, line: [], over: false, hint: null, helped: false };
    this.board.promotion = null;
    this.board.orientation = turnOf(puzzle.fen);
    this.say('info', t(puzzle.mate_in === 1 ? 'ex.puzzle.goal1' : 'ex.puzzle.goal2', { color: t(`color.${turnOf(puzzle.fen)}`) }));
    this.redraw();
    void this.goTo({ fen: puzzle.fen });
  }

  /** Shows `p` and offers its moves. */
  private async goTo(p: Shown): Promise<void> {
    if (await this.board.goTo(p)) this.redraw();
  }

  private async play(m: LegalMove): Promise<void> {
    const a = this.attempt;
    if (!a || a.over) return;
    const at = { fen: this.board.fen, lastMove: this.board.lastMove };
    this.board.pending(m);
    a.hint = null;
    this.busy = true;
    this.redraw();
    try {
      const r = await checkPuzzle(a.puzzle.id, [...a.line, m.uci]);
      if (!this.alive || this.attempt !== a) return;
      this.busy = false;
      if (!r.correct) return this.wrong(a, m, at);
      a.line.push(m.uci);
      if (r.done) return this.solved(a, m, r.counted);
      a.line.push(r.reply!);
      this.say('ok', t('ex.puzzle.right', { move: san(r.san), reply: san(r.reply_san ?? '') }));
      this.redraw();
      void this.goTo({ fen: r.fen, lastMove: r.reply });
    } catch (e) {
      this.fail(e);
      void this.goTo(at);
    }
  }

  /** A wrong move: taken back, nothing of the solution shown; the hint stays available. */
  private wrong(a: Attempt, m: LegalMove, at: Shown): void {
    a.helped = true;
    this.say('bad', t('ex.puzzle.wrong', { move: san(m.san) }));
    this.redraw();
    void this.goTo(at);
  }

  private solved(a: Attempt, m: LegalMove, counted: boolean): void {
    a.over = true;
    this.board.end({ fen: m.fen, lastMove: m.uci });
    if (counted) {
      this.say('ok', t('ex.puzzle.solved', { move: san(m.san) }));
      noteDone(`puzzle:${a.puzzle.id}`);
      // The exercise is done when every puzzle is, not after the first.
      if (this.solvedCount() === this.list!.length) void markDone(this.progressKey);
    } else this.say('info', t('ex.puzzle.solvedHelped', { move: san(m.san) }));
    this.redraw();
  }

  /** How many of the list's puzzles have been solved (counted by the server). */
  private solvedCount(): number {
    return this.list?.filter((p) => isDone(`puzzle:${p.id}`)).length ?? 0;
  }

  private async hint(): Promise<void> {
    const a = this.attempt;
    if (!a || a.over) return;
    const level = a.hint && a.hint.level >= 1 ? 2 : 1;
    try {
      const hint = await puzzleHint(a.puzzle.id, level, a.line);
      if (!this.alive || this.attempt !== a) return;
      a.hint = hint;
      a.helped = true;
      const piece = roleText(hint.role);
      this.say('info', hint.square ? t('ex.puzzle.hint2', { piece, square: hint.square }) : t('ex.puzzle.hint1', { piece }));
      this.board.shapes(hint.square ? [{ orig: hint.square as DrawShape['orig'], brush: 'yellow' }] : []);
      this.redraw();
    } catch (e) {
      this.fail(e);
    }
  }

  protected render(): VNode {
    const a = this.attempt;
    const total = this.list?.length ?? 0;
    return h('div.ex-body', [
      h('div.ex-board-col', [this.board.vnode()]),
      h('div.ex-side', [
        a
          ? h('p.ex-progress', { attrs: { 'data-testid': 'puzzle-info', 'data-id': a.puzzle.id } }, [
              t('ex.puzzle.info', { n: this.index + 1, total, mate: a.puzzle.mate_in }),
              isDone(`puzzle:${a.puzzle.id}`) ? h('span.ex-done', ` ✓ ${t('ex.done')}`) : null,
            ])
          : h('p.muted', t('ex.wait')),
        total ? h('p.muted.small', { attrs: { 'data-testid': 'puzzle-solved-count' } }, t('ex.puzzle.solvedCount', { done: this.solvedCount(), total })) : null,
        feedbackView(this.feedback, this.busy),
        h('div.ex-actions', [
          button(a?.hint?.square ? t('ex.puzzle.hintMore') : t('ex.puzzle.hint'), () => void this.hint(), { testid: 'puzzle-hint', disabled: !a || a.over || !!a.hint?.square }),
          a?.over ? button(t('ex.puzzle.retry'), () => this.open(this.index), { testid: 'puzzle-retry' }) : null,
          button(t('ex.puzzle.next'), () => this.open((this.index + 1) % total), { testid: 'puzzle-next', primary: !!a?.over, disabled: total === 0 }),
        ]),
      ]),
    ]);
  }
}
