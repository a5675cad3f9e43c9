//! Exercise "mate-drills": K+Q vs K and K+R vs K against the engine's
//! defence. The reader picks a start position, plays on the board (the legal
//! moves are the server's), the server answers each move with the
//! defender's best resistance; a counter shows the moves made, and after the
//! mate the fewest moves that were possible from the start. Stalemate, a
//! lost piece or the 50-move rule end the drill as a failure.
import { h, type VNode } from 'snabbdom';
import { type Key, t } from '../../i18n.js';
import { type Drill, drillMove, drills, type LegalMove } from './api.js';
import { turnOf } from './board.js';
import { PlayBoard, type Shown } from './play.js';
import { isDone, markDone } from './progress.js';
import { button, Exercise, feedbackView, san } from './widget.js';

const KINDS: ReadonlyArray<[string, Key]> = [
  ['kqk', 'ex.drill.kind.kqk'],
  ['krk', 'ex.drill.kind.krk'],
];
const FAILURES: Record<string, Key> = {
  stalemate: 'ex.drill.failed.stalemate',
  insufficient_material: 'ex.drill.failed.insufficient_material',
  fifty_moves: 'ex.drill.failed.fifty_moves',
};

/** The drill being played. */
interface Run {
  drill: Drill;
  count: number;
  over: boolean;
}

/** The mate drills. */
export class MateDrills extends Exercise {
  private list: Drill[] | null = null;
  private run: Run | null = null;
  private readonly board: PlayBoard;

  constructor(root: HTMLElement) {
    super(root, 'ex:mate-drills');
    this.board = new PlayBoard('8/8/8/8/8/8/8/8 w - - 0 1', 'white', {
      play: (m) => void this.play(m),
      redraw: () => this.redraw(),
      fail: (e) => this.fail(e),
      alive: () => this.alive,
    });
    this.say('info', t('ex.drill.start'));
    this.redraw();
    void this.loadList();
  }

  protected heading(): string {
    return t('ex.drill.title');
  }

  private async loadList(): Promise<void> {
    try {
      const list = await drills();
      if (!this.alive) return;
      this.list = list;
      this.redraw();
    } catch (e) {
      this.fail(e);
    }
  }

  private choose(d: Drill): void {
    this.run = { drill: d, count: 0, over: false };
    this.board.promotion = null;
    this.board.orientation = turnOf(d.fen);
    this.say('info', t('ex.drill.go', { fewest: d.fewest }));
    this.redraw();
    void this.goTo({ fen: d.fen });
  }

  /** Shows `p` and offers its moves. */
  private async goTo(p: Shown): Promise<void> {
    if (await this.board.goTo(p)) this.redraw();
  }

  private async play(m: LegalMove): Promise<void> {
    const run = this.run;
    if (!run || run.over) return;
    const at = { fen: this.board.fen, lastMove: this.board.lastMove };
    this.board.pending(m);
    this.busy = true;
    this.redraw();
    try {
      const r = await drillMove(at.fen, m.uci);
      if (!this.alive || this.run !== run) return;
      this.busy = false;
      run.count++;
      const next = { fen: r.fen, lastMove: r.reply?.uci ?? m.uci };
      if (r.status === 'checkmate') return this.won(run, next);
      if (r.failed || r.status !== 'ongoing') return this.lost(run, next, r.status);
      this.say('info', t('ex.drill.reply', { move: san(r.san), reply: san(r.reply?.san ?? '') }));
      this.redraw();
      void this.goTo(next);
    } catch (e) {
      this.fail(e);
      void this.goTo(at);
    }
  }

  private won(run: Run, at: Shown): void {
    run.over = true;
    this.board.end(at);
    const key = run.count <= run.drill.fewest ? 'ex.drill.perfect' : 'ex.drill.mated';
    this.say('ok', t(key, { moves: run.count, fewest: run.drill.fewest }));
    void markDone(`drill:${run.drill.id}`);
    void markDone(this.progressKey);
    this.redraw();
  }

  private lost(run: Run, at: Shown, status: string): void {
    run.over = true;
    this.board.end(at);
    this.say('bad', t(FAILURES[status] ?? 'ex.drill.noMate'), t('ex.drill.again'));
    this.redraw();
  }

  protected render(): VNode {
    const run = this.run;
    return h('div.ex-body', [
      h('div.ex-board-col', [this.board.vnode()]),
      h('div.ex-side', [
        this.chooser(),
        h('p.ex-counter', { attrs: { 'data-testid': 'drill-moves', 'data-count': String(run?.count ?? 0) } }, t('ex.drill.moves', { moves: run?.count ?? 0 })),
        feedbackView(this.feedback, this.busy),
        run ? h('div.ex-actions', [button(t('ex.drill.restart'), () => this.choose(run.drill), { testid: 'drill-restart' })]) : null,
      ]),
    ]);
  }

  private chooser(): VNode {
    if (!this.list) return h('p.muted', t('ex.wait'));
    return h(
      'div.ex-drills',
      KINDS.map(([kind, title]) => {
        const items = this.list!.filter((d) => d.kind === kind);
        return h('div.ex-drill-group', [
          h('h3', t(title)),
          h(
            'div.ex-actions',
            items.map((d, i) =>
              h(
                'button',
                {
                  class: { pressed: this.run?.drill.id === d.id, done: isDone(`drill:${d.id}`) },
                  attrs: { type: 'button', 'data-testid': `drill-${d.id}`, 'aria-pressed': String(this.run?.drill.id === d.id), title: t('ex.drill.fewest', { fewest: d.fewest }) },
                  on: { click: () => this.choose(d) },
                },
                `${isDone(`drill:${d.id}`) ? '✓ ' : ''}${t('ex.drill.position', { n: i + 1 })}`,
              ),
            ),
          ),
        ]);
      }),
    );
  }
}
