//! The table page `/t/{code}`: the table followed until a game starts (a
//! poll every 2 s while it is open), the host's waiting room (code, link,
//! copy, cancel), a visitor's "sit down", then the table's game through the
//! game page's controller, moving on to the next game after a rematch.
import { ApiError, cancelTable, getTable, joinTable, type Table } from '../api.js';
import { tableErrorText } from '../errors.js';
import { GameCtrl } from '../game/ctrl.js';
import { t } from '../i18n.js';
import type { Controller, Ctx } from '../page.js';
import { normalizeCode, sameName } from '../tables.js';

/** How often an open table is looked at. */
export const POLL_MS = 2000;

/** State of the table page. */
export class TableCtrl implements Controller {
  /** The code in canonical form (or as given, when it cannot be a code). */
  readonly code: string;
  table: Table | null = null;
  loadError: 'missing' | 'network' | null = null;
  /** The game being shown, once the table has one. */
  game: GameCtrl | null = null;
  busy = false;
  error: string | null = null;
  /** The link was copied (true), or copying failed (false). */
  copied: boolean | null = null;

  private poller: ReturnType<typeof setTimeout> | null = null;
  private alive = true;

  constructor(
    readonly ctx: Ctx,
    code: string,
  ) {
    const canonical = normalizeCode(code);
    this.code = canonical ?? code.toUpperCase();
    if (!canonical) {
      this.loadError = 'missing';
      return;
    }
    if (location.pathname !== `/t/${canonical}`) history.replaceState(null, '', `/t/${canonical}${location.search}`);
    this.load();
  }

  title(): string {
    if (this.game?.game) return this.game.title();
    return `${t('table.title', { code: this.code })} · ${t('site.name')}`;
  }

  destroy(): void {
    this.alive = false;
    this.stopPolling();
    this.game?.destroy();
    this.game = null;
  }

  redraw(): void {
    if (this.alive) this.ctx.redraw();
  }

  /** Is the logged-in account this table's host? */
  isHost(): boolean {
    return !!this.table && sameName(this.table.host.name, this.ctx.account()?.username);
  }

  /** The table's link, absolute, as given to the opponent. */
  link(): string {
    return new URL(this.table?.url ?? `/t/${this.code}`, location.origin).href;
  }

  private load(): void {
    getTable(this.code)
      .then((table) => {
        if (!this.alive) return;
        this.loadError = null;
        this.onTable(table);
      })
      .catch((e: unknown) => {
        if (!this.alive) return;
        if (e instanceof ApiError && (e.status === 404 || e.code === 'not_found')) {
          this.loadError = 'missing';
          this.stopPolling();
        } else {
          // Keep trying: the server may be back in a moment.
          if (!this.table) this.loadError = 'network';
          this.schedulePoll();
        }
        this.redraw();
      });
  }

  private onTable(table: Table): void {
    this.table = table;
    if (table.game_id && !this.game) {
      this.showGame(table.game_id);
      return;
    }
    if (table.status === 'open') this.schedulePoll();
    else this.stopPolling();
    this.redraw();
  }

  /** Shows game `id` (the table's game, or the next one after a rematch). */
  private showGame(id: string): void {
    this.stopPolling();
    this.game?.destroy();
    this.game = new GameCtrl(this.ctx, id, { onNextGame: (next) => this.showGame(next) });
    this.redraw();
  }

  private schedulePoll(): void {
    this.stopPolling();
    this.poller = setTimeout(() => {
      this.poller = null;
      this.load();
    }, POLL_MS);
  }

  private stopPolling(): void {
    if (this.poller) clearTimeout(this.poller);
    this.poller = null;
  }

  /** Sits down as the second player; the game starts at once. */
  sit(): void {
    this.act(() => joinTable(this.code), (table) => this.onTable(table));
  }

  /** Closes the host's open table and goes back to the Multiplayer page. */
  cancel(): void {
    this.act(() => cancelTable(this.code), () => this.ctx.navigate('/multiplayer'));
  }

  /**
   * Runs one request about the table at a time, then `done`; on a refusal,
   * shows why and reloads the table (it may have been taken or closed).
   */
  private act<T>(request: () => Promise<T>, done: (value: T) => void): void {
    if (this.busy) return;
    this.busy = true;
    this.error = null;
    this.redraw();
    request()
      .then((value) => {
        if (!this.alive) return;
        this.busy = false;
        done(value);
      })
      .catch((e: unknown) => {
        if (!this.alive) return;
        this.busy = false;
        this.error = tableErrorText(e);
        this.load();
        this.redraw();
      });
  }

  /** Copies the table's absolute link. */
  copyLink(): void {
    const done = (ok: boolean) => {
      if (!this.alive) return;
      this.copied = ok;
      this.redraw();
    };
    if (!navigator.clipboard) {
      done(false);
      return;
    }
    navigator.clipboard.writeText(this.link()).then(
      () => done(true),
      () => done(false),
    );
  }
}
