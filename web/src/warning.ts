//! The moderators' warning, shown on the logged-in player's next page
//! until they say they read it (`GET /api/account/warning`, `POST
//! …/read`): its state, asked again on each page the app opens.
import { myWarning, readWarning, type Warning } from './moderation/api.js';

/** The logged-in player's unread warning. */
export class WarningCtrl {
  warning: Warning | null = null;

  constructor(private readonly redraw: () => void) {}

  /** Asks the server again (each new page; `loggedIn` false clears it). */
  check(loggedIn: boolean): void {
    if (!loggedIn) {
      this.warning = null;
      return;
    }
    myWarning()
      .then((w) => {
        this.warning = w;
        this.redraw();
      })
      .catch(() => undefined);
  }

  /** The player read it. */
  acknowledge(): void {
    const w = this.warning;
    if (!w) return;
    this.warning = null;
    this.redraw();
    readWarning(w.id).catch(() => undefined);
  }
}
