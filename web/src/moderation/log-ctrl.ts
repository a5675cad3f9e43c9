//! The moderation log page (`/mod/log`): every action, newest first, one
//! page of 100 at a time.
import { t } from '../i18n.js';
import type { Controller, Ctx } from '../page.js';
import { type LogEntry, modLog } from './api.js';
import { type LoadError, loadError } from './model.js';

/** State of the log page. */
export class ModLogCtrl implements Controller {
  entries: LogEntry[] | null = null;
  error: LoadError | null = null;
  /** Whether an older page may exist. */
  more = false;
  busy = false;
  private alive = true;

  constructor(readonly ctx: Ctx) {
    this.load();
  }

  /** Loads the next (older) page. */
  load(): void {
    if (this.busy) return;
    this.busy = true;
    const last = this.entries?.at(-1);
    modLog(last ? Date.parse(last.at) : undefined)
      .then((page) => {
        this.entries = [...(this.entries ?? []), ...page];
        this.more = page.length === 100;
      })
      .catch((e: unknown) => (this.error = loadError(e)))
      .finally(() => {
        this.busy = false;
        if (this.alive) this.ctx.redraw();
      });
  }

  title(): string {
    return `${t('mod.log.title')} · ${t('site.name')}`;
  }

  destroy(): void {
    this.alive = false;
  }
}
