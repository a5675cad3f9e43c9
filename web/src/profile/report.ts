//! Reporting a player from their profile: the form's state (open or not,
//! the reason and text, opened filled in by `?report=&text=`) and sending
//! it (`POST /api/report`).
import type { Ctx } from '../page.js';
import { report, type ReportReason } from '../moderation/api.js';
import { actionError } from '../moderation/model.js';
import { reportWanted } from '../moderation/report-link.js';

/** State of the report form. */
export class ReportCtrl {
  open = false;
  reason: ReportReason = 'cheat';
  text = '';
  error: string | null = null;
  sent = false;
  busy = false;
  private alive = true;

  constructor(
    private readonly ctx: Ctx,
    readonly username: string,
  ) {
    // A report button elsewhere (a game, a chat line) opens the form filled in.
    const wanted = reportWanted(location.search);
    if (wanted) Object.assign(this, { open: true, reason: wanted.reason, text: wanted.text });
  }

  toggle(): void {
    this.open = !this.open;
    this.ctx.redraw();
  }

  submit(): void {
    if (this.busy) return;
    this.busy = true;
    this.error = null;
    this.ctx.redraw();
    report(this.username, this.reason, this.text)
      .then(() => {
        this.sent = true;
        this.open = false;
        this.text = '';
      })
      .catch((e: unknown) => (this.error = actionError(e)))
      .finally(() => {
        this.busy = false;
        if (this.alive) this.ctx.redraw();
      });
  }

  destroy(): void {
    this.alive = false;
  }
}
