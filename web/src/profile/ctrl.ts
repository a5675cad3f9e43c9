//! The profile page's controller (`/@/{username}?page=N`): the player and
//! one page of their games, newest first.
import { type Account, ApiError, type GamePage, getUser, userGames } from '../api.js';
import { t } from '../i18n.js';
import type { Controller, Ctx } from '../page.js';

/** State of a profile page. */
export class ProfileCtrl implements Controller {
  user: Account | null = null;
  games: GamePage | null = null;
  /** Loading failed: 'missing' (no such player) or 'network'. */
  error: 'missing' | 'network' | null = null;
  private alive = true;

  constructor(
    readonly ctx: Ctx,
    readonly username: string,
    readonly page: number,
  ) {
    Promise.all([getUser(username), userGames(username, page)])
      .then(([user, games]) => {
        this.user = user;
        this.games = games;
      })
      .catch((e: unknown) => {
        this.error = e instanceof ApiError && e.status === 404 ? 'missing' : 'network';
      })
      .finally(() => {
        if (this.alive) ctx.redraw();
      });
  }

  title(): string {
    return `${this.user?.username ?? this.username} · ${t('site.name')}`;
  }

  destroy(): void {
    this.alive = false;
  }
}
