//! A Swiss page's controller (`/swiss/{id}`): the Swiss, its rounds and
//! results, read again the moment the Swiss's socket
//! (`/api/swiss/{id}/socket`) says something changed, and every
//! [`FOLLOW_MS`] while the socket is down; joining, withdrawing, and a
//! leader's "next round" when rounds are started by hand.
import { getClub } from '../clubs/api.js';
import { clubErrorText, leads } from '../clubs/model.js';
import { Feed } from '../feed.js';
import { t } from '../i18n.js';
import type { Controller, Ctx } from '../page.js';
import {
  getSwiss,
  joinSwiss,
  MANUAL_INTERVAL,
  nextRound,
  type SwissChatLine,
  type SwissInfo,
  type SwissResult,
  type SwissRound,
  sayInSwiss,
  swissChat,
  swissResults,
  swissRounds,
  withdrawSwiss,
} from './api.js';

/** Characters a chat line has at most (the server's bound). */
export const SWISS_CHAT_MAX = 140;

/** How often the Swiss is asked for again while its socket is down. */
export const FOLLOW_MS = 3_000;

/** State of a Swiss page. */
export class SwissCtrl implements Controller {
  swiss: SwissInfo | null = null;
  rounds: SwissRound[] = [];
  results: SwissResult[] = [];
  leader = false;
  loadError: string | null = null;
  error: string | null = null;
  /** The chat, when the viewer may use it. */
  chat: SwissChatLine[] | null = null;
  chatInput = '';
  chatError: string | null = null;
  busy = false;
  private alive = true;
  private timer: ReturnType<typeof setInterval> | null = null;
  private feed: Feed<{ t: string }>;

  constructor(
    readonly ctx: Ctx,
    readonly id: string,
  ) {
    void this.load();
    this.feed = new Feed(`/api/swiss/${encodeURIComponent(id)}/socket`, (s) => {
      if (s.t === 'swiss' && this.alive) void this.load();
    });
    this.timer = setInterval(() => {
      if (!this.feed.live()) void this.load();
    }, FOLLOW_MS);
  }

  title(): string {
    return `${this.swiss?.name ?? t('swiss.title')} · ${t('site.name')}`;
  }

  destroy(): void {
    this.alive = false;
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.feed.close();
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
      this.chat = this.me() && (swiss.chatFor ?? 20) > 0 ? await swissChat(this.id).catch(() => null) : null;
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

  setChatInput(text: string): void {
    this.chatInput = text;
    this.chatError = null;
    this.ctx.redraw();
  }

  /** Says what the chat box holds. */
  async say(): Promise<void> {
    const text = this.chatInput.trim();
    if (!text) return;
    try {
      await sayInSwiss(this.id, text);
      this.chatInput = '';
      this.chat = await swissChat(this.id);
    } catch (e) {
      this.chatError = clubErrorText(e);
    }
    if (this.alive) this.ctx.redraw();
  }
}
