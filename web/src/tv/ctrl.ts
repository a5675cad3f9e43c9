//! The TV page (`/tv` and `/tv/{channel}`): the channels with their
//! featured games, and the chosen channel's game on a board that follows
//! its feed, switching to the next game when one ends.
import { Chessground } from '@lichess-org/chessground';
import type { Api } from '@lichess-org/chessground/api';
import type { Key } from '@lichess-org/chessground/types';
import { type Key as I18nKey, t } from '../i18n.js';
import type { Controller, Ctx } from '../page.js';
import { type ChannelGame, type ChannelKey, type FeedLine, readFeed, tvChannels, type TvPlayer } from './api.js';

/** The featured game as shown. */
export interface OnAir {
  id: string;
  orientation: 'white' | 'black';
  players: TvPlayer[];
  fen: string;
  lastMove: [Key, Key] | null;
  /** Each side's seconds left when the last line came, and when it came. */
  clocks: { white: number; black: number; at: number };
}

/** State of the TV page. */
export class TvCtrl implements Controller {
  channels: Partial<Record<ChannelKey, ChannelGame>> | null = null;
  onAir: OnAir | null = null;
  /** The feed could not be read. */
  failed = false;
  private readonly abort = new AbortController();
  private ground: Api | null = null;
  private readonly timers: number[] = [];

  constructor(
    readonly ctx: Ctx,
    readonly channel: ChannelKey,
  ) {
    this.loadChannels();
    this.timers.push(window.setInterval(() => this.loadChannels(), 10_000));
    // The clocks tick between lines.
    this.timers.push(window.setInterval(() => this.onAir && ctx.redraw(), 1000));
    readFeed(channel, this.abort.signal, (l) => this.onLine(l)).catch(() => {
      if (this.abort.signal.aborted) return;
      this.failed = true;
      ctx.redraw();
    });
  }

  private loadChannels(): void {
    tvChannels()
      .then((c) => {
        this.channels = c;
        this.ctx.redraw();
      })
      .catch(() => undefined);
  }

  private onLine(l: FeedLine): void {
    const now = Date.now();
    if (l.t === 'featured') {
      const seconds = (c: 'white' | 'black') => l.d.players.find((p) => p.color === c)?.seconds ?? 0;
      this.onAir = { id: l.d.id, orientation: l.d.orientation, players: l.d.players, fen: l.d.fen, lastMove: null, clocks: { white: seconds('white'), black: seconds('black'), at: now } };
    } else if (this.onAir) {
      const lm = l.d.lm;
      this.onAir.fen = l.d.fen;
      this.onAir.lastMove = lm.length >= 4 ? [lm.slice(0, 2) as Key, lm.slice(2, 4) as Key] : null;
      this.onAir.clocks = { white: l.d.wc, black: l.d.bc, at: now };
    }
    this.syncBoard();
    this.ctx.redraw();
  }

  /** The side to move in the shown position. */
  turn(): 'white' | 'black' {
    return this.onAir?.fen.split(' ')[1] === 'b' ? 'black' : 'white';
  }

  /** Seconds left for `color` now: the side to move's clock runs once both have moved. */
  secondsLeft(color: 'white' | 'black'): number {
    const a = this.onAir;
    if (!a) return 0;
    const base = a.clocks[color];
    const started = a.lastMove !== null && a.fen.split(' ')[5] !== '1';
    if (color !== this.turn() || !started || base === 0) return base;
    return Math.max(0, base - Math.floor((Date.now() - a.clocks.at) / 1000));
  }

  mountBoard(el: HTMLElement): void {
    this.ground = Chessground(el, { viewOnly: true, coordinates: true, animation: { enabled: true, duration: 160 } });
    this.syncBoard();
  }

  unmountBoard(): void {
    this.ground?.destroy();
    this.ground = null;
  }

  private syncBoard(): void {
    const a = this.onAir;
    if (!this.ground || !a) return;
    this.ground.set({ fen: a.fen, orientation: a.orientation, lastMove: a.lastMove ?? undefined, turnColor: this.turn() });
  }

  title(): string {
    return `${t('tv.title')} · ${t(`tv.channel.${this.channel}` as I18nKey)} · ${t('site.name')}`;
  }

  destroy(): void {
    this.abort.abort();
    for (const id of this.timers) window.clearInterval(id);
    this.unmountBoard();
  }
}
