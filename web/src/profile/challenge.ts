//! Challenging a player from their profile: the form (time control, variant,
//! rated, colour), the request, then the wait — a poll of the account's
//! challenges every few seconds (which also keeps the challenge alive) until
//! it stops waiting: accepted (open its game), declined, cancelled or gone
//! offline (say why). Leaving the page withdraws a challenge still waiting.
import { type Challenge, cancelChallenge, createChallenge, getGame, listChallenges, showChallenge } from '../api.js';
import { challengeErrorText, challengeRequest, type ChallengeSettings, defaultChallenge, endedText, gamePath } from '../challenges.js';
import { t } from '../i18n.js';
import type { Ctx } from '../page.js';
import type { TimeControl } from '../tables.js';

/** How often the waiting challenge is looked at. */
export const CHALLENGE_POLL_MS = 3000;

/** State of the profile's challenge form and of the challenge made with it. */
export class ChallengeCtrl {
  /** Is the form shown? */
  open = false;
  settings: ChallengeSettings = defaultChallenge();
  sending = false;
  /** What went wrong with the form or a request. */
  error: string | null = null;
  /** The challenge waiting for an answer. */
  waiting: Challenge | null = null;
  /** Why the last challenge ended (declined, cancelled, offline). */
  ended: string | null = null;

  private timer: ReturnType<typeof setTimeout> | null = null;
  private alive = true;

  constructor(
    private readonly ctx: Ctx,
    /** The challenged player's name, as shown. */
    readonly username: string,
  ) {}

  private redraw(): void {
    if (this.alive) this.ctx.redraw();
  }

  /** Shows or hides the form. */
  toggle(): void {
    this.open = !this.open;
    this.error = null;
    this.redraw();
  }

  /** Changes one setting. */
  set<K extends keyof ChallengeSettings>(key: K, value: ChallengeSettings[K]): void {
    this.settings = { ...this.settings, [key]: value };
    this.error = null;
    this.redraw();
  }

  /** Chooses a preset time control. */
  preset(tc: TimeControl): void {
    this.settings = { ...this.settings, minutes: String(tc.minutes), increment: String(tc.increment) };
    this.error = null;
    this.redraw();
  }

  /** Sends the challenge and starts waiting. */
  submit(): void {
    if (this.sending || this.waiting) return;
    const req = challengeRequest(this.settings);
    if (!req) {
      this.error = t('challenge.error.timeControl');
      this.redraw();
      return;
    }
    this.sending = true;
    this.error = null;
    this.ended = null;
    this.redraw();
    createChallenge(this.username, req)
      .then((c) => {
        if (!this.alive) {
          void cancelChallenge(c.id).catch(() => undefined);
          return;
        }
        this.waiting = c;
        this.open = false;
        this.schedule();
      })
      .catch((e: unknown) => {
        this.error = challengeErrorText(e, true);
      })
      .finally(() => {
        this.sending = false;
        this.redraw();
      });
  }

  /** Withdraws the waiting challenge. */
  cancel(): void {
    const c = this.waiting;
    if (!c || this.sending) return;
    this.sending = true;
    this.redraw();
    cancelChallenge(c.id)
      .then(() => {
        this.stop();
        this.waiting = null;
        this.ended = t('challenge.ended.youCanceled');
      })
      .catch((e: unknown) => {
        // It may have been answered meanwhile: the next look says how.
        this.error = challengeErrorText(e, false);
        this.check();
      })
      .finally(() => {
        this.sending = false;
        this.redraw();
      });
  }

  private schedule(): void {
    this.stop();
    if (this.alive && this.waiting) this.timer = setTimeout(() => this.check(), CHALLENGE_POLL_MS);
  }

  private stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Looks whether the challenge still waits; when not, opens its game or says why it ended. */
  private check(): void {
    const c = this.waiting;
    if (!c || !this.alive) return;
    listChallenges()
      .then(async (mine) => {
        if (mine.out.some((o) => o.id === c.id)) return;
        const now = await showChallenge(c.id);
        if (now.status === 'accepted') {
          const game = await getGame(c.id);
          this.waiting = null;
          if (this.alive) this.ctx.navigate(gamePath(c.id, game.table));
          return;
        }
        if (now.status === 'created') return;
        this.waiting = null;
        this.ended = endedText(now, this.username);
      })
      .catch(() => {
        // A passing failure: look again at the next tick.
      })
      .finally(() => {
        if (this.waiting) this.schedule();
        this.redraw();
      });
  }

  /** Stops polling; a challenge still waiting is withdrawn. */
  destroy(): void {
    this.alive = false;
    this.stop();
    if (this.waiting) void cancelChallenge(this.waiting.id).catch(() => undefined);
    this.waiting = null;
  }
}
