//! The home page's controller: the New game form, this player's recent
//! games, and the followed players online (for an account).
import { type GameSummary, myGames } from '../api.js';
import { type LiveGame, tvGames } from '../tv/api.js';
import { t } from '../i18n.js';
import { NewGameCtrl } from '../newgame/ctrl.js';
import type { Controller, Ctx } from '../page.js';
import { onlineFriends, type RelatedUser } from '../relations.js';

/** State of the home page. */
export class HomeCtrl implements Controller {
  readonly newGame: NewGameCtrl;
  /** The recent games; null while loading. */
  games: GameSummary[] | null = null;
  failed = false;
  /** The followed players online; null while loading, or without an account. */
  friends: RelatedUser[] | null = null;
  /** The games in progress on the site; null while loading or if they could not be read. */
  live: LiveGame[] | null = null;
  private alive = true;

  constructor(readonly ctx: Ctx) {
    this.newGame = new NewGameCtrl(ctx.redraw, ctx.navigate);
    myGames()
      .then((g) => {
        this.games = g;
      })
      .catch(() => {
        this.failed = true;
      })
      .finally(() => {
        if (this.alive) ctx.redraw();
      });
    tvGames()
      .then((g) => {
        this.live = g;
        if (this.alive) ctx.redraw();
      })
      .catch(() => undefined);
    if (ctx.account()) {
      onlineFriends()
        .then((f) => {
          this.friends = f.online;
          if (this.alive) ctx.redraw();
        })
        .catch(() => undefined);
    }
  }

  title(): string {
    return `${t('site.name')} · ${t('home.play.title')}`;
  }

  destroy(): void {
    this.alive = false;
  }
}
