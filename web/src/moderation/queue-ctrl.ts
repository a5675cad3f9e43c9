//! The moderators' queue (`/mod`): open reports grouped by reported
//! player with the evidence, each group closed with an action.
import { t } from '../i18n.js';
import type { Controller, Ctx } from '../page.js';
import { closeReports, type ModAction, queue, type ReportGroup } from './api.js';
import { actionError, type LoadError, loadError } from './model.js';

/** What a moderator chose for one group before closing it. */
export interface Closing {
  action: ModAction | 'none';
  reason: string;
  error: string | null;
  busy: boolean;
}

/** State of the queue page. */
export class ModQueueCtrl implements Controller {
  groups: ReportGroup[] | null = null;
  error: LoadError | null = null;
  /** Per reported player, the closing form's state. */
  readonly closing = new Map<string, Closing>();
  private alive = true;

  constructor(readonly ctx: Ctx) {
    this.reload();
  }

  private reload(): void {
    queue()
      .then((g) => (this.groups = g))
      .catch((e: unknown) => (this.error = loadError(e)))
      .finally(() => this.alive && this.ctx.redraw());
  }

  /** The closing form of `username`'s group. */
  form(username: string): Closing {
    let f = this.closing.get(username);
    if (!f) {
      f = { action: 'none', reason: '', error: null, busy: false };
      this.closing.set(username, f);
    }
    return f;
  }

  /** Closes `username`'s reports with the chosen action. */
  close(username: string): void {
    const f = this.form(username);
    if (f.busy) return;
    f.busy = true;
    f.error = null;
    this.ctx.redraw();
    closeReports(username, f.action, f.reason)
      .then(() => {
        this.closing.delete(username);
        this.groups = this.groups?.filter((g) => g.username !== username) ?? null;
      })
      .catch((e: unknown) => {
        f.error = actionError(e);
        f.busy = false;
      })
      .finally(() => this.alive && this.ctx.redraw());
  }

  title(): string {
    return `${t('mod.queue.title')} · ${t('site.name')}`;
  }

  destroy(): void {
    this.alive = false;
  }
}
