//! The tournaments list's controller (`/tournament`): the Arenas about to
//! start, being played and finished, asked for again every
//! [`LIST_POLL_MS`] while the page is open (the list changes rarely and
//! no socket carries it).
import { t } from '../i18n.js';
import type { Controller, Ctx } from '../page.js';
import { type ArenaLists, listArenas } from './api.js';
import { arenaErrorText } from './model.js';

/** How often the lists are asked for again. */
export const LIST_POLL_MS = 10_000;

/** State of the tournaments list. */
export class ArenasCtrl implements Controller {
  lists: ArenaLists | null = null;
  error: string | null = null;
  private alive = true;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(readonly ctx: Ctx) {
    this.load();
  }

  private load(): void {
    listArenas()
      .then((l) => {
        this.lists = l;
        this.error = null;
      })
      .catch((e: unknown) => {
        this.error = arenaErrorText(e);
      })
      .finally(() => {
        if (!this.alive) return;
        this.ctx.redraw();
        this.timer = setTimeout(() => this.load(), LIST_POLL_MS);
      });
  }

  title(): string {
    return `${t('arena.list.title')} · ${t('site.name')}`;
  }

  destroy(): void {
    this.alive = false;
    if (this.timer !== null) clearTimeout(this.timer);
  }
}
