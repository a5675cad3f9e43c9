//! The import page's controller (`/import`): a PGN pasted or read from a
//! file, sent to the server, which answers the stored games or the
//! importer's error word for word; one game opens its review at once.
import { ApiError, call } from '../api.js';
import { t } from '../i18n.js';
import type { Controller, Ctx } from '../page.js';

/** Largest PGN sent (the server's limit). */
export const MAX_PGN_BYTES = 256 * 1024;

/** A game stored by an import. */
export interface ImportedGame {
  id: string;
  white: string;
  black: string;
  result: string;
  plies: number;
}

/** The import page. */
export class ImportCtrl implements Controller {
  pgn = '';
  error: string | null = null;
  sending = false;
  /** The games stored, when there were several. */
  games: ImportedGame[] = [];

  constructor(private readonly ctx: Ctx) {}

  /** Reads a chosen file into the text box. */
  async readFile(file: File): Promise<void> {
    if (file.size > MAX_PGN_BYTES) {
      this.error = t('import.tooLarge', { kib: MAX_PGN_BYTES / 1024 });
    } else {
      this.pgn = await file.text();
      this.error = null;
    }
    this.ctx.redraw();
  }

  async submit(): Promise<void> {
    if (this.sending) return;
    if (!this.pgn.trim()) {
      this.error = t('import.empty');
      this.ctx.redraw();
      return;
    }
    this.sending = true;
    this.error = null;
    this.ctx.redraw();
    try {
      const r = await call<{ games: ImportedGame[] }>('POST', '/api/import', { pgn: this.pgn });
      if (r.games.length === 1) {
        this.ctx.navigate(`/game/${encodeURIComponent(r.games[0]!.id)}/review`);
        return;
      }
      this.games = r.games;
    } catch (e) {
      this.error = e instanceof ApiError ? (e.code === 'network' ? t('error.network') : e.message) : String(e);
    }
    this.sending = false;
    this.ctx.redraw();
  }

  title(): string {
    return t('import.title');
  }

  destroy(): void {}
}
