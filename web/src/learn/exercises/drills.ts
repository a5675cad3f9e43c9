//! Exercise "mate-drills": K+Q vs K and K+R vs K against the engine's
//! defence. The reader picks a start position, plays on the board (the legal
//! moves are the server's), the server answers each move with the
//! defender's best resistance; a counter shows the moves made, and after the
//! mate the fewest moves that were possible from the start. Stalemate, a
//! lost piece or the 50-move rule end the drill as a failure.
import { h, type VNode } from 'snabbdom';
import { type Key, t } from '../../i18n.js';
import { type Drill, drillMove, drills, inspect, type LegalMove } from './api.js';
import { ExerciseBoard, movesBetween, promotionView, turnOf } from './board.js';
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
  fen: string;
  moves: LegalMove[] | null;
  count: number;
  over: boolean;
  lastMove: string | null;
}

/** The mate drills. */
export class MateDrills extends Exercise {
  private list: Drill[] | null = null;
  private run: Run | null = null;
  private promotion: LegalMove[] | null = null;
  private readonly board: ExerciseBoard;

  constructor(root: HTMLElement) {
    super(root, 'ex:mate-drills');
    this.board = new ExerciseBoard({ fen: '8/8/8/8/8/8/8/8 w - - 0 1', orientation: 'white', moves: null }, (from, to) => this.onBoardMove(from, to));
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
    this.run = { drill: d, fen: d.fen, moves: null, count: 0, over: false, lastMove: null };
    this.promotion = null;
    this.say('info', t('ex.drill.go', { fewest: d.fewest }));
    this.redraw();
    void this.loadMoves();
  }

  private show(run: Run): void {
    this.board.show({ fen: run.fen, orientation: turnOf(run.drill.fen), moves: run.over ? null : run.moves, lastMove: run.lastMove });
  }

  private async loadMoves(): Promise<void> {
    const run = this.run;
    if (!run) return;
    this.show(run);
    try {
      const r = await inspect(run.fen);
      if (!this.alive || this.run !== run) return;
      if (!r.valid) return this.fail(r.error);
      if (!r.moves) return this.fail(t('ex.error.noMoves'));
      run.moves = r.moves;
      this.show(run);
      this.redraw();
    } catch (e) {
      this.fail(e);
    }
  }

  private onBoardMove(from: string, to: string): void {
    const choices = movesBetween(this.run?.moves ?? [], from, to);
    if (choices.length > 1) {
      this.promotion = choices;
      this.redraw();
    } else if (choices.length === 1) void this.play(choices[0]!);
  }

  private async play(m: LegalMove): Promise<void> {
    const run = this.run;
    if (!run || run.over) return;
    this.promotion = null;
    run.moves = null;
    this.busy = true;
    this.board.show({ fen: m.fen, orientation: turnOf(run.drill.fen), moves: null, lastMove: m.uci });
    this.redraw();
    try {
      const r = await drillMove(run.fen, m.uci);
      if (!this.alive || this.run !== run) return;
      this.busy = false;
      run.count++;
      run.fen = r.fen;
      run.lastMove = r.reply?.uci ?? m.uci;
      if (r.status === 'checkmate') return this.won(run);
      if (r.failed || r.status !== 'ongoing') return this.lost(run, r.status);
      this.say('info', t('ex.drill.reply', { move: san(r.san), reply: san(r.reply?.san ?? '') }));
      this.redraw();
      void this.loadMoves();
    } catch (e) {
      run.moves = null;
      this.fail(e);
      void this.loadMoves();
    }
  }

  private won(run: Run): void {
    run.over = true;
    this.show(run);
    const key = run.count <= run.drill.fewest ? 'ex.drill.perfect' : 'ex.drill.mated';
    this.say('ok', t(key, { moves: run.count, fewest: run.drill.fewest }));
    void markDone(`drill:${run.drill.id}`);
    void markDone(this.progressKey);
    this.redraw();
  }

  private lost(run: Run, status: string): void {
    run.over = true;
    this.show(run);
    this.say('bad', t(FAILURES[status] ?? 'ex.drill.noMate'), t('ex.drill.again'));
    this.redraw();
  }

  protected render(): VNode {
    const run = this.run;
    return h('div.ex-body', [
      h('div.ex-board-col', [
        h('div.ex-board-holder', [
          this.board.vnode(t('ex.board')),
          this.promotion && run ? promotionView(turnOf(run.fen), this.promotion, (m) => (m ? void this.play(m) : ((this.promotion = null), this.show(run), this.redraw()))) : null,
        ]),
      ]),
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
