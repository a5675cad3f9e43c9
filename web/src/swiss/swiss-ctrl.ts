//! A Swiss page's controller (`/swiss/{id}`): the Swiss, its rounds and
//! results followed every few seconds; joining, withdrawing, and a
//! leader's "next round" when rounds are started by hand.
import { getClub } from '../clubs/api.js';
import { clubErrorText, leads } from '../clubs/model.js';
import { t } from '../i18n.js';
import type { Controller, Ctx } from '../page.js';
import { getSwiss, joinSwiss, MANUAL_INTERVAL, nextRound, type SwissInfo, type SwissResult, type SwissRound, swissResults, swissRounds, withdrawSwiss } from './api.js';

/** How often the Swiss is asked for again. */
export const FOLLOW_MS = 3_000;

/** State of a Swiss page. */
export class SwissCtrl implements Controller {
  swiss: SwissInfo | null = null;
  rounds: SwissRound[] = [];
  results: SwissResult[] = [];
  leader = false;
  loadError: string | null = null;
  error: string | null = null;
  busy = false;
  private alive = true;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    readonly ctx: Ctx,
    readonly id: string,
  ) {
    void this.load();
    this.timer = setInterval(() => void this.load(), FOLLOW_MS);
  }

  title(): string {
    return `${this.swiss?.name ?? t('swiss.title')} · ${t('site.name')}`;
  }

  destroy(): void {
    this.alive = false;
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  /** The viewer's username, when logged in. */
  me(): string | null {
    return this.ctx.account()?.username ?? null;
  }

  /** The viewer's line of the results, if they joined. */
  mine(): SwissResult | null {
    const me = this.me()?.toLowerCase();
    return this.results.find((r) => r.username.toLowerCase() === me) ?? null;
  }

  /** May the viewer start the next round now? */
  canStartRound(): boolean {
    const s = this.swiss;
    if (!s || !this.leader || s.status !== 'started' || s.roundInterval !== MANUAL_INTERVAL) return false;
    const last = this.rounds[this.rounds.length - 1];
    return last !== undefined && last.boards.every((b) => b.result !== '*') && s.nextRound === undefined;
  }

  async load(): Promise<void> {
    try {
      const [swiss, rounds, results] = await Promise.all([getSwiss(this.id), swissRounds(this.id), swissResults(this.id)]);
      if (!this.alive) return;
      if (this.swiss === null && this.me()) {
        const club = await getClub(swiss.teamId);
        this.leader = leads(club, this.me());
      }
      this.swiss = swiss;
      this.rounds = rounds;
      this.results = results;
      this.loadError = null;
    } catch (e) {
      this.loadError = clubErrorText(e);
    }
    if (this.alive) this.ctx.redraw();
  }

  private async act(f: () => Promise<unknown>): Promise<void> {
    this.busy = true;
    this.error = null;
    this.ctx.redraw();
    try {
      await f();
    } catch (e) {
      this.error = clubErrorText(e);
    }
    this.busy = false;
    await this.load();
  }

  join(): Promise<void> {
    return this.act(() => joinSwiss(this.id));
  }

  withdraw(): Promise<void> {
    return this.act(() => withdrawSwiss(this.id));
  }

  startRound(): Promise<void> {
    return this.act(() => nextRound(this.id));
  }
}
