//! The profile page's controller (`/@/{username}?page=N` and the game
//! search's filters, `search.ts`): the player and one page of their games,
//! newest first, challenging them
//! (`challenge.ts`), and their follows, followers and the viewer's follow
//! and block buttons (`relations-ctrl.ts`).
import { type Account, ApiError, type GamePage, getUser, profilePath, type RatingHistory, ratingHistory, userGames } from '../api.js';
import { t } from '../i18n.js';
import type { Controller, Ctx } from '../page.js';
import { sameName } from '../tables.js';
import { ChallengeCtrl } from './challenge.js';
import { RelationsCtrl } from './relations-ctrl.js';
import { ReportCtrl } from './report.js';
import { apiQuery, type GameSearch, searchQuery } from '../game-search.js';

/** State of a profile page. */
export class ProfileCtrl implements Controller {
  user: Account | null = null;
  games: GamePage | null = null;
  /** The rating history (null until loaded, or if it could not be). */
  history: RatingHistory | null = null;
  /** Loading failed: 'missing' (no such player) or 'network'. */
  error: 'missing' | 'network' | null = null;
  /** Challenging this player. */
  readonly challenge: ChallengeCtrl;
  /** Follows and blocks. */
  readonly relations: RelationsCtrl;
  /** Reporting this player to the moderators. */
  readonly report: ReportCtrl;
  /** The search form was opened (it is open anyway on a filtered page). */
  searchOpen = false;
  private alive = true;

  constructor(
    readonly ctx: Ctx,
    readonly username: string,
    readonly page: number,
    readonly search: GameSearch = {},
  ) {
    this.challenge = new ChallengeCtrl(ctx, username);
    this.relations = new RelationsCtrl(ctx, username);
    this.report = new ReportCtrl(ctx, username);
    Promise.all([getUser(username), userGames(username, apiQuery(search, page))])
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
    ratingHistory(username)
      .then((h) => {
        this.history = h;
        if (this.alive) ctx.redraw();
      })
      .catch(() => {});
  }

  /** Opens the profile with the games `search` keeps, from its first page. */
  applySearch(search: GameSearch): void {
    const query = searchQuery(search);
    this.ctx.navigate(`${profilePath(this.username)}${query ? `?${query}` : ''}`);
  }

  /** The profile URL of page `n` of the current search. */
  pageHref(n: number): string {
    const query = searchQuery(this.search, n);
    return `${profilePath(this.username)}${query ? `?${query}` : ''}`;
  }

  /** May the viewer challenge this player (logged in, someone else)? */
  canChallenge(): boolean {
    const me = this.ctx.account();
    return me !== null && this.user !== null && !sameName(me.username, this.user.username);
  }

  title(): string {
    return `${this.user?.username ?? this.username} · ${t('site.name')}`;
  }

  destroy(): void {
    this.alive = false;
    this.challenge.destroy();
    this.relations.destroy();
    this.report.destroy();
  }
}
