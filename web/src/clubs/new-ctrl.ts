//! The controller of the form that creates a club (`/team/new`): name,
//! description, open or closed; the server checks them and the new club's
//! page opens.
import { t } from '../i18n.js';
import type { Controller, Ctx } from '../page.js';
import { clubPath } from '../route.js';
import { createClub } from './api.js';
import { clubErrorText } from './model.js';

/** State of the creation form. */
export class ClubNewCtrl implements Controller {
  name = '';
  description = '';
  open = true;
  error: string | null = null;
  busy = false;
  private alive = true;

  constructor(readonly ctx: Ctx) {}

  title(): string {
    return `${t('clubs.new.title')} · ${t('site.name')}`;
  }

  destroy(): void {
    this.alive = false;
  }

  setOpen(open: boolean): void {
    this.open = open;
    this.ctx.redraw();
  }

  /** Creates the club and opens its page, or shows why the server refused. */
  submit(): void {
    if (this.busy) return;
    this.busy = true;
    this.error = null;
    this.ctx.redraw();
    createClub({ name: this.name, description: this.description, open: this.open })
      .then((club) => {
        this.busy = false;
        if (this.alive) this.ctx.navigate(clubPath(club.id));
      })
      .catch((e: unknown) => {
        this.busy = false;
        this.error = clubErrorText(e);
        if (this.alive) this.ctx.redraw();
      });
  }
}
