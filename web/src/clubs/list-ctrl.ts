//! The clubs list's controller (`/team?text=…&page=N`): one page of every
//! club, the largest first, or of those whose name holds the searched
//! text, and the viewer's own clubs when logged in.
import { t } from '../i18n.js';
import type { Controller, Ctx } from '../page.js';
import { clubsPath } from '../route.js';
import { type Club, type ClubPage, clubsOf, listClubs } from './api.js';
import { clubErrorText } from './model.js';

/** State of the clubs list. */
export class ClubsCtrl implements Controller {
  /** What the search box holds (the URL's `text` until the visitor types). */
  input: string;
  page: ClubPage | null = null;
  /** The viewer's clubs (null while loading or when logged out). */
  mine: Club[] | null = null;
  error: string | null = null;
  private alive = true;

  constructor(
    readonly ctx: Ctx,
    /** The searched text ('' for every club). */
    readonly text: string,
    readonly n: number,
  ) {
    this.input = text;
    listClubs(text, n)
      .then((p) => {
        this.page = p;
      })
      .catch((e: unknown) => {
        this.error = clubErrorText(e);
      })
      .finally(() => this.redraw());
    const me = ctx.account();
    if (me) {
      clubsOf(me.username)
        .then((list) => {
          this.mine = list;
        })
        .catch(() => {
          this.mine = [];
        })
        .finally(() => this.redraw());
    }
  }

  private redraw(): void {
    if (this.alive) this.ctx.redraw();
  }

  title(): string {
    return `${t('clubs.title')} · ${t('site.name')}`;
  }

  destroy(): void {
    this.alive = false;
  }

  /** Shows the first page of the clubs whose name holds what the search box holds (every club when empty). */
  search(): void {
    this.ctx.navigate(clubsPath(this.input));
  }

  /** Path of page `n` of this list. */
  pagePath(n: number): string {
    return clubsPath(this.text, n);
  }
}
