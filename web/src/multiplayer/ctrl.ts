//! The Multiplayer page's controller: quick pairing (seek a preset, wait,
//! cancel), the open-a-table form (remembered choices), the live lobby
//! (GET /api/lobby, then the lobby socket) and sitting down at a table from
//! the lobby or by its code.
import { ApiError, getLobby, joinTable, lobbySocketUrl, openTable, type Seek, seekGame, type Table } from '../api.js';
import { tableErrorText } from '../errors.js';
import { t } from '../i18n.js';
import type { Controller, Ctx } from '../page.js';
import { lobbyReduce, normalizeCode, sameName, type TableSettings, tableRequest, type TimeControl } from '../tables.js';

export type { TableSettings };
import { CELLS, type Cell, cellId, seekRequest, seeksReduce } from './quick.js';
import { LobbySocket } from './socket.js';

const STORAGE_KEY = 'plyyard.table';
const QUICK_RATED_KEY = 'plyyard.quickRated';


const DEFAULTS: TableSettings = { variant: 'standard', minutes: '5', increment: '3', rules: 'plyyard', rated: true, private: false };

/** Loads the remembered choices, falling back to defaults field by field. */
export function loadTableSettings(): TableSettings {
  try {
    const raw = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}') as Partial<TableSettings>;
    return {
      variant: raw.variant === 'chess960' ? 'chess960' : 'standard',
      minutes: typeof raw.minutes === 'string' ? raw.minutes : DEFAULTS.minutes,
      increment: typeof raw.increment === 'string' ? raw.increment : DEFAULTS.increment,
      rules: raw.rules === 'fide' ? 'fide' : 'plyyard',
      rated: typeof raw.rated === 'boolean' ? raw.rated : DEFAULTS.rated,
      private: raw.private === true,
    };
  } catch {
    return { ...DEFAULTS };
  }
}

function loadQuickRated(): boolean {
  try {
    return localStorage.getItem(QUICK_RATED_KEY) !== 'false';
  } catch {
    return true;
  }
}

/** State of the Multiplayer page. */
export class MultiplayerCtrl implements Controller {
  settings: TableSettings = loadTableSettings();
  formError: string | null = null;
  submitting = false;
  /** The open public tables; null until loaded. */
  lobby: Table[] | null = null;
  lobbyFailed = false;
  lobbyConnected = true;
  /** Error of sitting down from the lobby. */
  lobbyError: string | null = null;
  /** The table being sat at (its lobby item is busy). */
  sitting: string | null = null;
  joinCode = '';
  joinError: string | null = null;
  joining = false;

  /** The players waiting by quick pairing (from the lobby socket). */
  seeks: Seek[] = [];
  /** Quick pairing seeks rated games. */
  quickRated = loadQuickRated();
  /** The cell being sought (its button shows waiting), by `cellId`. */
  seeking: string | null = null;
  quickError: string | null = null;

  private socket: LobbySocket | null = null;
  private seekAbort: AbortController | null = null;
  private alive = true;

  constructor(readonly ctx: Ctx) {
    getLobby()
      .then((tables) => {
        if (!this.alive) return;
        // The socket's first message replaces this list; the GET shows it sooner.
        this.lobby ??= tables;
        this.redraw();
      })
      .catch(() => {
        if (!this.alive) return;
        if (this.lobby === null) this.lobbyFailed = true;
        this.redraw();
      });
    this.socket = new LobbySocket(
      lobbySocketUrl(),
      (msg) => {
        this.lobby = lobbyReduce(this.lobby ?? [], msg);
        this.seeks = seeksReduce(this.seeks, msg);
        this.lobbyFailed = false;
        this.redraw();
      },
      (open) => {
        this.lobbyConnected = open;
        this.redraw();
      },
    );
  }

  title(): string {
    return `${t('multiplayer.title')} · ${t('site.name')}`;
  }

  destroy(): void {
    this.stopSeeking();
    this.alive = false;
    this.socket?.close();
    this.socket = null;
  }

  redraw(): void {
    if (this.alive) this.ctx.redraw();
  }

  /** Seeks a game of `cell`, or cancels when it is the one being sought; pairing opens the game's table. */
  quick(cell: Cell): void {
    const id = cellId(cell);
    const again = this.seeking === id;
    this.stopSeeking();
    this.quickError = null;
    if (again) {
      this.redraw();
      return;
    }
    const abort = new AbortController();
    this.seekAbort = abort;
    this.seeking = id;
    this.redraw();
    seekGame(seekRequest(cell, this.quickRated), abort.signal)
      .then((paired) => {
        if (!this.alive || this.seekAbort !== abort) return;
        this.seekAbort = null;
        this.seeking = null;
        this.ctx.navigate(paired.url || `/t/${paired.code}`);
      })
      .catch((e: unknown) => {
        if (!this.alive || this.seekAbort !== abort) return;
        this.seekAbort = null;
        this.seeking = null;
        this.quickError = tableErrorText(e);
        this.redraw();
      });
  }

  /**
   * Cancels the seek under way, if any: the seek lives as long as its
   * request, so ending the request ends it (no separate cancel that could
   * overtake the next seek).
   */
  stopSeeking(): void {
    if (!this.seekAbort) return;
    this.seekAbort.abort();
    this.seekAbort = null;
    this.seeking = null;
  }

  /** Chooses rated or casual quick pairing (remembered; a seek under way is cancelled). */
  setQuickRated(rated: boolean): void {
    this.stopSeeking();
    this.quickRated = rated;
    try {
      localStorage.setItem(QUICK_RATED_KEY, String(rated));
    } catch {
      // Not remembered when storage is unavailable.
    }
    this.redraw();
  }

  /** Takes up a waiting seek: seeks the same game (its cell, rated or not), which pairs at once. */
  playSeek(seek: Seek): void {
    const cell = CELLS.find((c) => c.variant === seek.variant && c.minutes === seek.minutes && c.increment === seek.increment);
    if (!cell) return;
    if (this.quickRated !== seek.rated) this.setQuickRated(seek.rated);
    if (this.seeking !== cellId(cell)) this.quick(cell);
  }

  /** Is the logged-in account the host of `table`? */
  isMine(table: Table): boolean {
    return sameName(table.host.name, this.ctx.account()?.username);
  }

  /** Changes one choice (remembered at once). */
  set<K extends keyof TableSettings>(key: K, value: TableSettings[K]): void {
    this.settings = { ...this.settings, [key]: value };
    this.save();
  }

  /** Chooses a preset time control. */
  preset(tc: TimeControl): void {
    this.settings = { ...this.settings, minutes: String(tc.minutes), increment: String(tc.increment) };
    this.formError = null;
    this.save();
  }

  private save(): void {
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(this.settings));
    } catch {
      // Not remembered when storage is unavailable.
    }
    this.redraw();
  }

  /** Opens the table, then its page. */
  submit(): void {
    if (this.submitting) return;
    const req = tableRequest(this.settings);
    if (!req) {
      this.formError = t('multiplayer.form.tcInvalid');
      this.redraw();
      document.querySelector<HTMLElement>('[data-testid="table-minutes"]')?.focus();
      return;
    }
    this.formError = null;
    this.submitting = true;
    this.redraw();
    openTable(req)
      .then((table) => {
        if (!this.alive) return;
        this.submitting = false;
        this.ctx.navigate(table.url || `/t/${table.code}`);
      })
      .catch((e: unknown) => {
        if (!this.alive) return;
        this.submitting = false;
        this.formError = tableErrorText(e);
        this.redraw();
      });
  }

  /** Sits down at a lobby table (or opens it: one's own, or when not logged in). */
  sit(table: Table): void {
    if (this.sitting) return;
    if (!this.ctx.account() || this.isMine(table)) {
      this.ctx.navigate(`/t/${table.code}`);
      return;
    }
    this.sitting = table.code;
    this.lobbyError = null;
    this.redraw();
    joinTable(table.code)
      .then((joined) => {
        if (!this.alive) return;
        this.sitting = null;
        this.ctx.navigate(`/t/${joined.code}`);
      })
      .catch((e: unknown) => {
        if (!this.alive) return;
        this.sitting = null;
        this.lobbyError = tableErrorText(e);
        this.redraw();
      });
  }

  setJoinCode(v: string): void {
    this.joinCode = v;
  }

  /** Sits down at the table whose code was typed. */
  join(): void {
    if (this.joining) return;
    const code = normalizeCode(this.joinCode);
    if (!code) {
      this.joinError = t('multiplayer.join.invalid');
      this.redraw();
      return;
    }
    this.joinError = null;
    if (!this.ctx.account()) {
      // The table page asks to log in, and says whose table it is.
      this.ctx.navigate(`/t/${code}`);
      return;
    }
    this.joining = true;
    this.redraw();
    joinTable(code)
      .then((joined) => {
        if (!this.alive) return;
        this.joining = false;
        this.ctx.navigate(`/t/${joined.code}`);
      })
      .catch((e: unknown) => {
        if (!this.alive) return;
        this.joining = false;
        // One's own table: its page is where to wait.
        if (e instanceof ApiError && e.code === 'own_table') {
          this.ctx.navigate(`/t/${code}`);
          return;
        }
        this.joinError = tableErrorText(e);
        this.redraw();
      });
  }
}
