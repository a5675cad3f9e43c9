//! The controller of the form that creates an Arena (`/tournament/new`):
//! lichess's knobs, checked here first (each mistake named in the
//! viewer's language), then by the server; the new Arena's page opens.
import { t } from '../i18n.js';
import { type Club, clubsOf } from '../clubs/api.js';
import { leads } from '../clubs/model.js';
import type { Controller, Ctx } from '../page.js';
import { createArena } from './api.js';
import { type ArenaForm, arenaErrorText, arenaPath, arenaRequest, defaultArenaForm } from './model.js';

/** State of the creation form. */
export class ArenaNewCtrl implements Controller {
  form: ArenaForm = defaultArenaForm();
  /** The clubs the viewer leads (a club Arena may be made for them). */
  clubs: Club[] = [];
  error: string | null = null;
  busy = false;
  private alive = true;

  constructor(readonly ctx: Ctx) {
    const me = ctx.account();
    if (me) {
      clubsOf(me.username)
        .then((list) => {
          this.clubs = list.filter((c) => leads(c, me.username));
          if (this.alive) this.ctx.redraw();
        })
        .catch(() => undefined);
    }
  }

  title(): string {
    return `${t('arena.new.title')} · ${t('site.name')}`;
  }

  destroy(): void {
    this.alive = false;
  }

  /** Changes one field (and redraws, for the fields that show or hide others). */
  set<K extends keyof ArenaForm>(k: K, v: ArenaForm[K]): void {
    this.form = { ...this.form, [k]: v };
    if (typeof v === 'boolean' || k === 'startMode') this.ctx.redraw();
  }

  /** Creates the Arena and opens its page, or shows what is wrong. */
  submit(): void {
    if (this.busy) return;
    const req = arenaRequest(this.form, Date.now());
    if ('error' in req) {
      this.error = t(req.error);
      this.ctx.redraw();
      return;
    }
    this.busy = true;
    this.error = null;
    this.ctx.redraw();
    createArena(req.ok)
      .then((a) => {
        this.busy = false;
        if (this.alive) this.ctx.navigate(arenaPath(a.id));
      })
      .catch((e: unknown) => {
        this.busy = false;
        this.error = arenaErrorText(e);
        if (this.alive) this.ctx.redraw();
      });
  }
}
