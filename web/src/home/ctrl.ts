//! The home page's controller: the New game form and this player's recent games.
import { type GameSummary, myGames } from '../api.js';
import { t } from '../i18n.js';
import { NewGameCtrl } from '../newgame/ctrl.js';
import type { Controller, Ctx } from '../page.js';

/** State of the home page. */
export class HomeCtrl implements Controller {
  readonly newGame: NewGameCtrl;
  /** The recent games; null while loading. */
  games: GameSummary[] | null = null;
  failed = false;
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
  }

  title(): string {
    return `${t('site.name')} · ${t('home.play.title')}`;
  }

  destroy(): void {
    this.alive = false;
  }
}
