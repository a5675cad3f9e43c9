//! The header's count of unread conversations: asked when the app starts,
//! on every page change, when a conversation was read, and every
//! [`UNREAD_POLL_MS`] while someone is logged in and the tab is shown.
import { unreadCount } from './api.js';

/** How often the count is asked for while nothing else asks. */
export const UNREAD_POLL_MS = 30_000;

/** The unread count, kept for the header. */
export class UnreadCount {
  /** Conversations with a message the account has not read. */
  n = 0;
  private on = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Bumped on every refresh and stop, so that an older answer is dropped. */
  private epoch = 0;

  constructor(private readonly redraw: () => void) {
    document.addEventListener('visibilitychange', () => {
      if (this.on && document.visibilityState !== 'hidden') this.refresh();
    });
  }

  /** Follows the account: counts while someone is logged in, shows nothing otherwise. */
  follow(loggedIn: boolean): void {
    this.on = loggedIn;
    this.n = 0;
    if (loggedIn) this.refresh();
    else this.stop();
  }

  private stop(): void {
    this.epoch++;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Asks for the count now, then again after a while. */
  refresh(): void {
    if (!this.on) return;
    this.stop();
    const epoch = this.epoch;
    unreadCount()
      .then((n) => {
        if (epoch !== this.epoch) return;
        this.n = n;
        this.redraw();
      })
      .catch(() => undefined)
      .finally(() => {
        if (epoch !== this.epoch || !this.on || document.visibilityState === 'hidden') return;
        this.timer = setTimeout(() => this.refresh(), UNREAD_POLL_MS);
      });
  }
}
