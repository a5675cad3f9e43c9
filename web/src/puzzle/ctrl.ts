//! The puzzle trainer (`/training`, `/training/{angle}`, `/training/daily`):
//! one puzzle at a time from `GET /api/puzzle/batch/{angle}?nb=1` (or the
//! puzzle of the day), its first result sent with
//! `POST /api/puzzle/batch/{angle}?nb=1` (rated for an account), whose
//! answer brings the rating change and the next puzzle. The difficulty is
//! remembered in the browser. `/training/{id}` shows puzzle `id` (5 letters
//! or digits, as lichess's ids, and not a theme key).
import { ApiError } from '../api.js';
import { t } from '../i18n.js';
import { errorText } from '../learn/exercises/widget.js';
import type { Controller, Ctx } from '../page.js';
import { dailyPuzzle, DIFFICULTIES, type Difficulty, getBatch, getPuzzle, type Glicko, type PuzzleData, type Round, sendSolutions } from './api.js';
import { isPuzzleId } from './model.js';
import { type Outcome, PuzzleRound } from './round.js';
import { angleName, isTheme } from './themes.js';

const DIFFICULTY_KEY = 'plyyard.puzzle.difficulty';

/** The difficulty chosen in this browser (normal at first). */
export function storedDifficulty(): Difficulty {
  try {
    const d = localStorage.getItem(DIFFICULTY_KEY);
    return (DIFFICULTIES as readonly string[]).includes(d ?? '') ? (d as Difficulty) : 'normal';
  } catch {
    return 'normal';
  }
}

function storeDifficulty(d: Difficulty): void {
  try {
    localStorage.setItem(DIFFICULTY_KEY, d);
  } catch {
    // Not remembered without storage.
  }
}

/** A request's failure as a sentence (no puzzle left or an unknown angle said plainly). */
export function puzzleError(e: unknown): string {
  if (e instanceof ApiError && e.status === 404) return t('puzzle.none');
  return errorText(e);
}

/** The trainer page. */
export class TrainerCtrl implements Controller {
  round: PuzzleRound | null = null;
  difficulty: Difficulty = storedDifficulty();
  glicko: Glicko | null = null;
  /** The result the server recorded for the round shown. */
  recorded: Round | null = null;
  sending = false;
  error: string | null = null;
  /** The next puzzle, from the answer to the last result. */
  private upcoming: PuzzleData | null = null;
  private alive = true;
  /** Counts the puzzles asked for: only the latest answer is used. */
  private asked = 0;

  constructor(
    private readonly ctx: Ctx,
    /** The theme or opening, `mix`, or `daily` for the puzzle of the day. */
    readonly angle: string,
  ) {
    void this.load();
  }

  get daily(): boolean {
    return this.angle === 'daily';
  }

  /** The puzzle id of `/training/{id}` (a lichess-style id of 5 letters or digits, or one of our own, `py` and 6, not a theme), else null. */
  get puzzleId(): string | null {
    return !isTheme(this.angle) && isPuzzleId(this.angle) ? this.angle : null;
  }

  /** One puzzle shown by itself (the puzzle of the day, or one by its id), not a series. */
  get single(): boolean {
    return this.daily || this.puzzleId !== null;
  }

  /** The angle results are sent under. */
  private get sendAngle(): string {
    return this.single ? 'mix' : this.angle;
  }

  /** Is the visitor logged in (rated rounds)? */
  get rated(): boolean {
    return this.ctx.account() !== null;
  }

  private async load(): Promise<void> {
    const mine = ++this.asked;
    this.error = null;
    this.open(null);
    try {
      let data: PuzzleData | undefined;
      if (this.daily) data = await dailyPuzzle();
      else if (this.puzzleId) data = await getPuzzle(this.puzzleId);
      else {
        const b = await getBatch(this.angle, 1, this.difficulty);
        this.glicko = b.glicko;
        data = b.puzzles[0];
      }
      if (!this.alive || mine !== this.asked) return;
      if (!data) this.error = t('puzzle.none');
      else this.open(data);
    } catch (e) {
      if (!this.alive || mine !== this.asked) return;
      this.error = puzzleError(e);
    }
    this.ctx.redraw();
  }

  private open(data: PuzzleData | null): void {
    this.round?.destroy();
    this.recorded = null;
    this.round = data
      ? new PuzzleRound(data, {
          redraw: () => this.ctx.redraw(),
          alive: () => this.alive,
          ended: (r, o) => void this.ended(r, o),
        })
      : null;
    this.round?.start();
  }

  /** Sends the round's first result; the answer brings the rating change and the next puzzle. */
  private async ended(round: PuzzleRound, outcome: Outcome): Promise<void> {
    this.sending = true;
    this.ctx.redraw();
    try {
      const r = await sendSolutions(this.sendAngle, [{ id: round.id, win: outcome === 'win', rated: this.rated }], 1, this.difficulty);
      if (!this.alive || this.round !== round) return;
      this.recorded = r.rounds.find((x) => x.id === round.id) ?? null;
      this.glicko = r.glicko;
      this.upcoming = r.puzzles[0] ?? null;
    } catch (e) {
      if (!this.alive || this.round !== round) return;
      this.error = puzzleError(e);
    }
    this.sending = false;
    this.ctx.redraw();
  }

  /** Opens the next puzzle (after the puzzle of the day or one by its id, the trainer's mix). */
  next(): void {
    if (this.single) return this.ctx.navigate('/training');
    const up = this.upcoming;
    this.upcoming = null;
    if (up) {
      this.error = null;
      this.open(up);
      this.ctx.redraw();
    } else void this.load();
  }

  setDifficulty(d: Difficulty): void {
    if (d === this.difficulty) return;
    this.difficulty = d;
    storeDifficulty(d);
    this.upcoming = null;
    // A new puzzle at once, unless the one shown is being solved (the next one takes the new difficulty).
    const r = this.round;
    if (r && r.outcome === null && r.step > 0) return this.ctx.redraw();
    void this.load();
  }

  setAngle(angle: string): void {
    this.ctx.navigate(angle === 'mix' ? '/training' : `/training/${encodeURIComponent(angle)}`);
  }

  title(): string {
    if (this.daily) return t('puzzle.daily');
    if (this.puzzleId) return t('puzzle.info.id', { id: this.puzzleId });
    return `${t('puzzle.title')} · ${angleName(this.angle)}`;
  }

  destroy(): void {
    this.alive = false;
    this.round?.destroy();
  }
}
