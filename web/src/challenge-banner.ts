//! The incoming-challenges banner of the app shell, for a logged-in player
//! on every page: a poll of the account's challenges every few seconds
//! (stopped when logged out, paused while the tab is hidden), each one
//! received shown with accept (then its game opens) and decline (with a
//! reason). Its view is in `challenge-view.ts`.
import { acceptChallenge, type Challenge, declineChallenge, getGame, listChallenges } from './api.js';
import { challengeErrorText, type DeclineChoice, gamePath } from './challenges.js';

/** How often the account's challenges are looked at. */
export const INCOMING_POLL_MS = 4000;

/** What the banner needs from the app shell. */
export interface BannerHost {
  redraw(): void;
  navigate(path: string): void;
}

/** State of the incoming-challenges banner. */
export class IncomingCtrl {
  /** The challenges received and waiting, oldest first. */
  list: Challenge[] = [];
  /** The chosen decline reason per challenge id. */
  reasons: Record<string, DeclineChoice> = {};
  /** The challenge being answered. */
  busy: string | null = null;
  error: string | null = null;

  /** Challenges answered here: a poll sent before the answer must not show them again. */
  private readonly answered = new Set<string>();
  private on = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Bumped on every start and stop, so that an answer from before is dropped. */
  private epoch = 0;
  private readonly onVisibility = (): void => {
    if (!this.on) return;
    if (document.visibilityState === 'hidden') this.pause();
    else this.poll();
  };

  constructor(private readonly host: BannerHost) {
    document.addEventListener('visibilitychange', this.onVisibility);
  }

  /** Follows the account: polls while someone is logged in, shows nothing otherwise. */
  follow(loggedIn: boolean): void {
    if (loggedIn === this.on) return;
    this.on = loggedIn;
    this.pause();
    this.list = [];
    this.error = null;
    if (loggedIn && document.visibilityState !== 'hidden') this.poll();
  }

  private pause(): void {
    this.epoch++;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Looks at the account's challenges now, then again after a while. */
  poll(): void {
    this.pause();
    const epoch = this.epoch;
    listChallenges()
      .then((mine) => {
        if (epoch !== this.epoch) return;
        this.list = mine.in.filter((c) => !this.answered.has(c.id));
      })
      .catch((e: unknown) => {
        if (epoch !== this.epoch) return;
        // Logged out elsewhere: stop until the shell says otherwise.
        if ((e as { status?: number }).status === 401) {
          this.on = false;
          this.list = [];
        }
      })
      .finally(() => {
        if (epoch !== this.epoch) return;
        if (this.on && document.visibilityState !== 'hidden') this.timer = setTimeout(() => this.poll(), INCOMING_POLL_MS);
        this.host.redraw();
      });
  }

  /** Chooses the reason a challenge would be declined with. */
  setReason(id: string, reason: DeclineChoice): void {
    this.reasons = { ...this.reasons, [id]: reason };
    this.host.redraw();
  }

  /** Accepts a challenge and opens its game. */
  accept(c: Challenge): void {
    if (this.busy) return;
    this.busy = c.id;
    this.error = null;
    this.answered.add(c.id);
    this.host.redraw();
    acceptChallenge(c.id)
      .then(async () => {
        this.list = this.list.filter((o) => o.id !== c.id);
        // The game has the challenge's id; its table's page is where it is played.
        const table = await getGame(c.id).then(
          (g) => g.table,
          () => null,
        );
        this.host.navigate(gamePath(c.id, table));
      })
      .catch((e: unknown) => {
        this.error = challengeErrorText(e, false);
        this.list = this.list.filter((o) => o.id !== c.id);
      })
      .finally(() => {
        this.busy = null;
        this.host.redraw();
      });
  }

  /** Declines a challenge with the chosen reason (generic by default). */
  decline(c: Challenge): void {
    if (this.busy) return;
    this.busy = c.id;
    this.error = null;
    this.answered.add(c.id);
    this.host.redraw();
    declineChallenge(c.id, this.reasons[c.id] ?? 'generic')
      .catch((e: unknown) => {
        this.error = challengeErrorText(e, false);
      })
      .finally(() => {
        this.list = this.list.filter((o) => o.id !== c.id);
        this.busy = null;
        this.host.redraw();
      });
  }

  /** Hides the last error. */
  dismiss(): void {
    this.error = null;
    this.host.redraw();
  }
}
