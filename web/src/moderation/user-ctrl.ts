//! A player's moderation page (`/mod/user/{name}`): roles, marks, reports,
//! the log about them and the evidence; each action taken or lifted with
//! a reason.
import { t } from '../i18n.js';
import type { Controller, Ctx } from '../page.js';
import { act, type ModAction, type ModRecord, modRecord } from './api.js';
import { actionError, type LoadError, loadError } from './model.js';

/** State of a player's moderation page. */
export class ModUserCtrl implements Controller {
  record: ModRecord | null = null;
  error: LoadError | 'missing' | null = null;
  reason = '';
  actionError: string | null = null;
  busy = false;
  private alive = true;

  constructor(
    readonly ctx: Ctx,
    readonly username: string,
  ) {
    this.reload();
  }

  private reload(): void {
    modRecord(this.username)
      .then((r) => (this.record = r))
      .catch((e: unknown) => (this.error = e instanceof Error && 'status' in e && e.status === 404 ? 'missing' : loadError(e)))
      .finally(() => this.alive && this.ctx.redraw());
  }

  /** Whether the player bears `mark`. */
  marked(mark: string): boolean {
    return this.record?.marks.some((m) => m.mark === mark) ?? false;
  }

  /** Takes `action` (or lifts it) with the typed reason. */
  act(action: ModAction, lift: boolean): void {
    if (this.busy) return;
    this.busy = true;
    this.actionError = null;
    this.ctx.redraw();
    act(this.username, action, this.reason, lift)
      .then(() => {
        this.reason = '';
        this.reload();
      })
      .catch((e: unknown) => (this.actionError = actionError(e)))
      .finally(() => {
        this.busy = false;
        if (this.alive) this.ctx.redraw();
      });
  }

  title(): string {
    return `${t('mod.user.title', { name: this.record?.username ?? this.username })} · ${t('site.name')}`;
  }

  destroy(): void {
    this.alive = false;
  }
}
