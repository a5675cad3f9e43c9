//! The puzzle dashboard (`/training/dashboard?days=7|30|90`): the account's
//! results over the period, overall and per theme, from
//! `GET /api/puzzle/dashboard/{days}`. Visitors without an account are
//! asked to log in.
import { t } from '../i18n.js';
import type { Controller, Ctx } from '../page.js';
import { type Dashboard, getDashboard } from './api.js';
import { puzzleError } from './ctrl.js';

/** The dashboard page. */
export class DashboardCtrl implements Controller {
  data: Dashboard | null = null;
  error: string | null = null;
  private alive = true;

  constructor(
    private readonly ctx: Ctx,
    readonly days: number,
  ) {
    if (this.loggedIn) void this.load();
  }

  get loggedIn(): boolean {
    return this.ctx.account() !== null;
  }

  private async load(): Promise<void> {
    try {
      const d = await getDashboard(this.days);
      if (!this.alive) return;
      this.data = d;
    } catch (e) {
      if (!this.alive) return;
      this.error = puzzleError(e);
    }
    this.ctx.redraw();
  }

  title(): string {
    return t('puzzle.dashboard.title');
  }

  destroy(): void {
    this.alive = false;
  }
}
