//! A player's page at one speed (`/@/{username}/perf/{speed}`): their
//! rating there, highest and lowest, best wins, worst losses, counts and
//! runs, read from lichess's `GET /api/user/{username}/perf/{perf}`.
import { ApiError, type PerfStat, perfStat } from '../api.js';
import { type Key, t } from '../i18n.js';
import type { Controller, Ctx } from '../page.js';

/** State of a perf page. */
export class PerfCtrl implements Controller {
  stat: PerfStat | null = null;
  /** Loading failed: 'missing' (no such player) or 'network'. */
  error: 'missing' | 'network' | null = null;
  private alive = true;

  constructor(
    readonly ctx: Ctx,
    readonly username: string,
    readonly speed: string,
  ) {
    perfStat(username, speed)
      .then((s) => {
        this.stat = s;
      })
      .catch((e: unknown) => {
        this.error = e instanceof ApiError && e.status === 404 ? 'missing' : 'network';
      })
      .finally(() => {
        if (this.alive) ctx.redraw();
      });
  }

  title(): string {
    return `${t('perf.title', { name: this.stat?.user.name ?? this.username, speed: t(`speed.${this.speed}` as Key) })} · ${t('site.name')}`;
  }

  destroy(): void {
    this.alive = false;
  }
}
