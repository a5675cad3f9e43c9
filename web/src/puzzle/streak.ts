//! Puzzle Streak (`/streak`): puzzles one after another, harder as the
//! streak grows, until the first mistake. Each puzzle is
//! `GET /api/puzzle/next?angle=mix&difficulty=…`, the difficulty stepping
//! up with the score (easiest for the first 2, then easier, normal, harder,
//! hardest: `streakDifficulty` in model.ts), relative to the player's puzzle rating.
//! Streak results are not sent (not rated); the best streak is kept in the
//! browser.
import { t } from '../i18n.js';
import type { Controller, Ctx } from '../page.js';
import { nextPuzzle, type PuzzleData } from './api.js';
import { bestScore, noteScore } from './best.js';
import { puzzleError } from './ctrl.js';
import { streakDifficulty } from './model.js';
import { type Outcome, PuzzleRound } from './round.js';

export const STREAK_BEST_KEY = 'plyyard.puzzle.streak.best';

/** The streak page. */
export class StreakCtrl implements Controller {
  score = 0;
  best = bestScore(STREAK_BEST_KEY);
  round: PuzzleRound | null = null;
  over = false;
  error: string | null = null;
  private alive = true;
  private asked = 0;

  constructor(private readonly ctx: Ctx) {
    void this.load();
  }

  /** Starts a new streak. */
  restart(): void {
    this.score = 0;
    this.over = false;
    void this.load();
    this.ctx.redraw();
  }

  private async load(): Promise<void> {
    const mine = ++this.asked;
    this.error = null;
    this.open(null);
    try {
      const data = await nextPuzzle('mix', streakDifficulty(this.score));
      if (!this.alive || mine !== this.asked) return;
      this.open(data);
    } catch (e) {
      if (!this.alive || mine !== this.asked) return;
      this.error = puzzleError(e);
    }
    this.ctx.redraw();
  }

  private open(data: PuzzleData | null): void {
    this.round?.destroy();
    this.round = data ? new PuzzleRound(data, { redraw: () => this.ctx.redraw(), alive: () => this.alive, ended: (_r, o) => this.ended(o) }) : null;
    this.round?.start();
  }

  private ended(outcome: Outcome): void {
    if (outcome === 'win') {
      this.score++;
      this.best = noteScore(STREAK_BEST_KEY, this.score);
      this.ctx.redraw();
      setTimeout(() => {
        if (this.alive && !this.over) void this.load();
      }, 700);
    } else {
      this.over = true;
      this.best = noteScore(STREAK_BEST_KEY, this.score);
      this.ctx.redraw();
    }
  }

  title(): string {
    return t('puzzle.streak.title');
  }

  destroy(): void {
    this.alive = false;
    this.round?.destroy();
  }
}
