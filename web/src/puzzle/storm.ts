//! Puzzle Storm (`/storm`): as many puzzles as possible in 3 minutes. The
//! clock starts with the first move; a mistake costs 10 seconds and moves
//! on to the next puzzle; every 5 puzzles solved in a row add 3 seconds.
//! Puzzles come in batches of 10 (`GET /api/puzzle/batch/mix?nb=10`), each
//! batch one difficulty step harder (easiest, easier, normal, harder, then
//! hardest). Storm rounds are not rated. At the end an account's run is
//! sent (`POST /api/storm`: its score, moves, mistakes, best combo, time
//! and hardest puzzle solved) for its storm dashboard, and the page shows
//! its best of all time; the browser keeps its own best score too.
import { formatClock } from '../clock.js';
import { t } from '../i18n.js';
import type { Controller, Ctx } from '../page.js';
import { DIFFICULTIES, getBatch, type PuzzleData, sendStorm, type StormHigh } from './api.js';
import { bestScore, noteScore } from './best.js';
import { puzzleError } from './ctrl.js';
import { type Outcome, type Pace, PuzzleRound } from './round.js';

export const STORM_MS = 180_000;
export const STORM_PENALTY_MS = 10_000;
export const STORM_BONUS_MS = 3_000;
/** Puzzles in a row that earn the bonus. */
export const STORM_COMBO = 5;
const BATCH = 10;
const PACE: Pace = { intro: 250, reply: 200 };
export const STORM_BEST_KEY = 'plyyard.puzzle.storm.best';

/** The storm page. */
export class StormCtrl implements Controller {
  state: 'ready' | 'play' | 'over' = 'ready';
  round: PuzzleRound | null = null;
  solved = 0;
  failed = 0;
  combo = 0;
  bestCombo = 0;
  best = bestScore(STORM_BEST_KEY);
  /** Moves played this run, good and bad. */
  moves = 0;
  /** The highest rating among the puzzles solved this run. */
  highest = 0;
  /** The account's best scores, once this run is recorded. */
  high: StormHigh | null = null;
  error: string | null = null;
  /** The last change of the clock by a bonus or a penalty, shown a moment. */
  flash: { ms: number; at: number } | null = null;
  private queue: PuzzleData[] = [];
  private batches = 0;
  private fetching: Promise<void> | null = null;
  private deadline = 0;
  private startedAt = 0;
  private shown = formatClock(STORM_MS);
  private ticker: ReturnType<typeof setInterval> | null = null;
  private alive = true;

  constructor(private readonly ctx: Ctx) {
    void this.nextRound();
  }

  /** Milliseconds left. */
  left(now = performance.now()): number {
    if (this.state === 'ready') return STORM_MS;
    if (this.state === 'over') return 0;
    return Math.max(0, this.deadline - now);
  }

  /** The clock as shown. */
  clockText(): string {
    return formatClock(this.left());
  }

  /** Starts a new storm. */
  restart(): void {
    this.stopTicker();
    Object.assign(this, { state: 'ready', solved: 0, failed: 0, combo: 0, bestCombo: 0, moves: 0, highest: 0, high: null, flash: null, error: null });
    this.queue = [];
    this.batches = 0;
    void this.nextRound();
  }

  private fetchMore(): Promise<void> {
    this.fetching ??= (async () => {
      try {
        const d = DIFFICULTIES[Math.min(this.batches, DIFFICULTIES.length - 1)]!;
        const b = await getBatch('mix', BATCH, d);
        this.batches++;
        const have = new Set(this.queue.map((p) => p.puzzle.id));
        this.queue.push(...b.puzzles.filter((p) => !have.has(p.puzzle.id)));
      } finally {
        this.fetching = null;
      }
    })();
    return this.fetching;
  }

  private async nextRound(): Promise<void> {
    this.round?.destroy();
    this.round = null;
    try {
      if (this.queue.length === 0) await this.fetchMore();
      else if (this.queue.length < 3) void this.fetchMore().catch(() => undefined);
    } catch (e) {
      if (!this.alive) return;
      this.error = puzzleError(e);
      this.ctx.redraw();
      return;
    }
    if (!this.alive || this.state === 'over') return;
    const data = this.queue.shift();
    if (!data) {
      this.error = t('puzzle.none');
      this.ctx.redraw();
      return;
    }
    this.round = new PuzzleRound(
      data,
      { redraw: () => this.ctx.redraw(), alive: () => this.alive, ended: (_r, o) => this.ended(o), moved: () => this.moved() },
      PACE,
    );
    this.round.start();
    this.ctx.redraw();
  }

  private moved(): void {
    if (this.state === 'play') this.moves++;
    if (this.state !== 'ready') return;
    this.moves = 1;
    this.state = 'play';
    this.startedAt = performance.now();
    this.deadline = this.startedAt + STORM_MS;
    this.ticker = setInterval(() => this.tick(), 100);
  }

  private tick(): void {
    if (!this.alive || this.state !== 'play') return;
    const left = this.left();
    if (left <= 0) return this.end();
    const text = formatClock(left);
    if (text !== this.shown || (this.flash && performance.now() - this.flash.at > 1500)) {
      if (this.flash && performance.now() - this.flash.at > 1500) this.flash = null;
      this.shown = text;
      this.ctx.redraw();
    }
  }

  private ended(outcome: Outcome): void {
    if (this.state === 'over') return;
    const now = performance.now();
    if (outcome === 'win') {
      this.solved++;
      this.highest = Math.max(this.highest, this.round?.data.puzzle.rating ?? 0);
      this.combo++;
      this.bestCombo = Math.max(this.bestCombo, this.combo);
      if (this.combo % STORM_COMBO === 0) {
        this.deadline += STORM_BONUS_MS;
        this.flash = { ms: STORM_BONUS_MS, at: now };
      }
    } else {
      this.failed++;
      this.combo = 0;
      this.deadline -= STORM_PENALTY_MS;
      this.flash = { ms: -STORM_PENALTY_MS, at: now };
      if (this.state === 'play' && this.left(now) <= 0) return this.end();
    }
    this.ctx.redraw();
    setTimeout(() => {
      if (this.alive && this.state !== 'over') void this.nextRound();
    }, outcome === 'win' ? 250 : 600);
  }

  private end(): void {
    this.state = 'over';
    this.stopTicker();
    this.round?.destroy();
    this.round?.board.end(null);
    this.best = noteScore(STORM_BEST_KEY, this.solved);
    if (this.ctx.account() !== null && this.moves > 0) this.record(performance.now());
    this.ctx.redraw();
  }

  /** Sends the run that ended at `now` for the account's dashboard. */
  private record(now: number): void {
    const run = {
      score: this.solved,
      moves: Math.max(this.moves, this.solved + this.failed),
      errors: this.failed,
      combo: this.bestCombo,
      time: Math.round((now - this.startedAt) / 1000),
      highest: this.highest,
    };
    sendStorm(run)
      .then((r) => {
        if (!this.alive) return;
        this.high = r.high;
        this.ctx.redraw();
      })
      .catch((e: unknown) => {
        if (!this.alive) return;
        this.error = puzzleError(e);
        this.ctx.redraw();
      });
  }

  private stopTicker(): void {
    if (this.ticker !== null) clearInterval(this.ticker);
    this.ticker = null;
  }

  title(): string {
    return t('puzzle.storm.title');
  }

  destroy(): void {
    this.alive = false;
    this.stopTicker();
    this.round?.destroy();
  }
}
