//! An Arena's page controller (`/tournament/{id}`): the Arena with a page
//! of its standing, the countdown, join / pause / rejoin, a player's
//! sheet, the podium, the chat, and the next game opened at once.
//!
//! Live updates: while the page is open, a logged-in viewer holds the
//! account's event stream (`/api/stream/event`). It is what makes them
//! "on the tournament page" for the director (lichess pairs those only),
//! and it pushes `gameStart` the moment the director pairs them (the page
//! then opens `/game/{id}`) and `gameFinish` (the standing is read again
//! at once). Every viewer also holds the Arena's socket
//! (`/api/tournament/{id}/socket`): the Arena with page 1 of its standing
//! the moment anything changes, and the number of its latest chat line (the
//! chat is then read again). While the socket is up the page reads the
//! Arena itself only every [`ARENA_SLOW_POLL_MS`] (for `me` and other
//! pages); without it, every [`ARENA_POLL_MS`].
import { t } from '../i18n.js';
import type { Controller, Ctx } from '../page.js';
import {
  type ArenaChatLine,
  type ArenaFull,
  type ArenaResult,
  arenaChat,
  arenaOfGame,
  arenaResults,
  followEvents,
  getArena,
  joinArena,
  sayInArena,
  terminateArena,
  withdrawArena,
} from './api.js';
import { Feed } from '../feed.js';
import { arenaErrorText, secondsLeft } from './model.js';

/** A message of the Arena's socket. */
interface ArenaSnapshot {
  t: string;
  data: ArenaFull;
  /** The number of the latest chat line. */
  chat: number;
}

/** How often the standing and the chat are read again without the socket. */
export const ARENA_POLL_MS = 4000;
/** How often they are read again while the socket is up. */
export const ARENA_SLOW_POLL_MS = 30_000;
/** How long to wait before opening the event stream again after it closed. */
const STREAM_RETRY_MS = 3000;
/** Characters a chat line has at most (the server's bound). */
export const ARENA_CHAT_MAX = 140;

/** State of an Arena's page. */
export class ArenaCtrl implements Controller {
  arena: ArenaFull | null = null;
  /** When `arena` was received (for the countdown). */
  fetchedAt = 0;
  page = 1;
  error: string | null = null;
  actionError: string | null = null;
  busy = false;
  password = '';
  /** The player whose sheet is shown, with their result line. */
  sheet: ArenaResult | null = null;
  chat: ArenaChatLine[] | null = null;
  chatInput = '';
  chatError: string | null = null;
  /** The creator asked to end the Arena: the button asks again. */
  confirmingEnd = false;
  private alive = true;
  private poll: ReturnType<typeof setTimeout> | null = null;
  private tick: ReturnType<typeof setInterval>;
  private stream: AbortController | null = null;
  private feed: Feed<ArenaSnapshot>;
  /** The latest chat line's number the socket told (-1: none yet). */
  private chatSeq = -1;

  constructor(
    readonly ctx: Ctx,
    readonly id: string,
  ) {
    this.load();
    this.feed = new Feed(`/api/tournament/${encodeURIComponent(id)}/socket`, (s) => this.snapshot(s));
    this.tick = setInterval(() => {
      if (this.arena && this.remaining() !== null) this.ctx.redraw();
    }, 1000);
    if (ctx.account()) this.follow();
  }

  title(): string {
    return `${this.arena?.fullName ?? t('arena.list.title')} · ${t('site.name')}`;
  }

  destroy(): void {
    this.alive = false;
    if (this.poll !== null) clearTimeout(this.poll);
    clearInterval(this.tick);
    this.stream?.abort();
    this.feed.close();
  }

  /** The socket's news: page 1 of the standing, and a new chat line to read. */
  private snapshot(s: ArenaSnapshot): void {
    if (!this.alive || s.t !== 'arena') return;
    if (this.page === 1) {
      const me = this.arena?.me;
      const mine = me && s.data.standing.players.find((p) => p.name.toLowerCase() === me.username.toLowerCase());
      this.arena = { ...s.data, me: me && mine ? { ...me, rank: mine.rank } : me };
      this.fetchedAt = Date.now();
      this.error = null;
    } else {
      this.load();
    }
    const chatMoved = this.chatSeq >= 0 && s.chat !== this.chatSeq;
    this.chatSeq = s.chat;
    if (chatMoved && this.ctx.account() && s.data.hasChat !== false) {
      arenaChat(this.id)
        .then((lines) => {
          this.chat = lines;
          this.redraw();
        })
        .catch(() => undefined);
    }
    this.redraw();
  }

  private redraw(): void {
    if (this.alive) this.ctx.redraw();
  }

  /** Seconds left before the start (or the end while it runs), null when finished. */
  remaining(): number | null {
    return this.arena ? secondsLeft(this.arena, this.fetchedAt, Date.now()) : null;
  }

  /** Reads the Arena (and the chat) now, then again after a while. */
  load(): void {
    if (this.poll !== null) clearTimeout(this.poll);
    this.poll = null;
    const chat = this.ctx.account() && this.arena?.hasChat !== false;
    Promise.all([getArena(this.id, this.page), chat ? arenaChat(this.id).catch(() => null) : null])
      .then(([a, lines]) => {
        this.arena = a;
        this.fetchedAt = Date.now();
        this.error = null;
        if (lines) this.chat = lines;
      })
      .catch((e: unknown) => {
        this.error = arenaErrorText(e);
      })
      .finally(() => {
        if (!this.alive) return;
        this.redraw();
        if (this.arena?.isFinished) return;
        const every = this.feed.live() ? ARENA_SLOW_POLL_MS : ARENA_POLL_MS;
        this.poll = setTimeout(() => this.load(), document.visibilityState === 'hidden' ? every * 5 : every);
      });
  }

  /** Holds the event stream open while the page is, opening a paired game at once. */
  private follow(): void {
    if (!this.alive) return;
    this.stream = new AbortController();
    followEvents(this.stream.signal, (type, gameId) => {
      if (type === 'gameFinish') this.load();
      if (type === 'gameStart') void this.paired(gameId);
    })
      .catch(() => undefined)
      .finally(() => {
        if (this.alive && !this.arena?.isFinished) setTimeout(() => this.follow(), STREAM_RETRY_MS);
      });
  }

  /** A game of the viewer started: open it when it is one of this Arena's. */
  private async paired(gameId: string): Promise<void> {
    const of = await arenaOfGame(gameId);
    if (this.alive && of?.id === this.id) this.ctx.navigate(`/game/${encodeURIComponent(gameId)}`);
  }

  /** Shows page `n` of the standing. */
  goto(n: number): void {
    this.page = Math.max(1, n);
    this.load();
  }

  /** Joins, or comes back after a pause. */
  join(): void {
    this.act(() => joinArena(this.id, this.password));
  }

  /** Pauses (withdraws). */
  withdraw(): void {
    this.act(() => withdrawArena(this.id));
  }

  private act(run: () => Promise<void>): void {
    if (this.busy) return;
    this.busy = true;
    this.actionError = null;
    this.redraw();
    run()
      .then(() => this.load())
      .catch((e: unknown) => {
        this.actionError = arenaErrorText(e);
      })
      .finally(() => {
        this.busy = false;
        this.redraw();
      });
  }

  /** Is the viewer the Arena's creator? */
  isCreator(): boolean {
    const me = this.ctx.account();
    return !!me && !!this.arena && me.username.toLowerCase() === this.arena.createdBy;
  }

  /** The creator ends the Arena now (asked to confirm first). */
  terminate(): void {
    if (!this.confirmingEnd) {
      this.confirmingEnd = true;
      this.redraw();
      return;
    }
    this.confirmingEnd = false;
    this.act(() => terminateArena(this.id));
  }

  /** Shows `name`'s sheet (their line of the results), or hides it when shown. */
  showSheet(name: string): void {
    if (this.sheet?.username === name) {
      this.sheet = null;
      this.redraw();
      return;
    }
    arenaResults(this.id)
      .then((lines) => {
        this.sheet = lines.find((l) => l.username === name) ?? null;
      })
      .catch((e: unknown) => {
        this.actionError = arenaErrorText(e);
      })
      .finally(() => this.redraw());
  }

  setChatInput(text: string): void {
    this.chatInput = text;
    this.chatError = null;
    // Drawn each time, so that clearing the box after a line is a change the view sees.
    this.redraw();
  }

  /** Says what the chat box holds. */
  say(): void {
    const text = this.chatInput.trim();
    if (!text) return;
    sayInArena(this.id, text)
      .then(async () => {
        this.chatInput = '';
        this.chat = await arenaChat(this.id);
      })
      .catch((e: unknown) => {
        this.chatError = arenaErrorText(e);
      })
      .finally(() => this.redraw());
  }
}
