//! The analysis board's controller (`/analysis?fen=…`, `/analysis?game={id}&ply=N`
//! or `/analysis/{id}/{ply}`): the position (a FEN typed in, or a position
//! of a game), the engine's three best lines deepening live over
//! server-sent events, and a view-only board with the lines' first moves
//! as arrows.
import { Chessground } from '@lichess-org/chessground';
import type { Api } from '@lichess-org/chessground/api';
import type { Key } from '@lichess-org/chessground/types';
import { t } from '../i18n.js';
import type { Controller, Ctx } from '../page.js';
import { squaresOf } from '../review/data.js';
import { type Line, type Snapshot, START_FEN, type Source, turnOf, uciOf } from './source.js';

/** The analysis board. */
export class AnalysisCtrl implements Controller {
  /** The FEN being analysed (known once the game's position is loaded). */
  fen: string | null = null;
  /** The FEN in the input box. */
  input = '';
  lines: Line[] = [];
  /** Legal moves of the position shown (empty until the server sent them). */
  dests: Record<string, string[]> = {};
  done = false;
  running = false;
  error: string | null = null;
  orientation: 'white' | 'black' = 'white';
  private ground: Api | null = null;
  private abort: AbortController | null = null;
  private gone = false;

  constructor(
    private readonly ctx: Ctx,
    readonly source: Source,
  ) {
    // Not within the constructor: the first analysis redraws, and the app has no page yet.
    queueMicrotask(() => {
      if (this.gone) return;
      if ('fen' in source) this.analyse(source.fen);
      else this.analyse(null, `game=${encodeURIComponent(source.game)}&ply=${source.ply}`);
    });
  }

  /** Analyses `fen` (or the position named by `query`), replacing any analysis under way. */
  analyse(fen: string | null, query?: string): void {
    this.abort?.abort();
    this.lines = [];
    this.dests = {};
    this.done = false;
    this.error = null;
    this.fen = fen;
    this.input = fen ?? '';
    this.running = true;
    const q = query ?? `fen=${encodeURIComponent(fen ?? START_FEN)}`;
    void this.open(`/api/analysis/stream?${q}&movetime_ms=10000`);
    this.syncBoard();
    this.ctx.redraw();
  }

  /** Reads the stream of snapshots (fetch, so that a refused request's error body can be shown). */
  private async open(url: string): Promise<void> {
    const abort = new AbortController();
    this.abort = abort;
    try {
      const res = await fetch(url, { credentials: 'same-origin', signal: abort.signal });
      if (!res.ok || !res.body) {
        const j = (await res.json().catch(() => ({}))) as { error?: { message?: string } };
        throw new Error(j.error?.message ?? t('analysis.failed'));
      }
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          this.onEvent(buffer.slice(0, cut));
          buffer = buffer.slice(cut + 2);
        }
      }
    } catch (e) {
      if (abort.signal.aborted) return;
      this.error = e instanceof Error ? e.message : String(e);
    }
    if (this.abort === abort) {
      this.running = false;
      this.ctx.redraw();
    }
  }

  /** One server-sent event: `lines` with a snapshot, or `error`. */
  private onEvent(block: string): void {
    let event = 'message';
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data += line.slice(5).trim();
    }
    if (event === 'error' && data) {
      const j = JSON.parse(data) as { error?: { message?: string } };
      this.error = j.error?.message ?? t('analysis.failed');
    } else if (event === 'lines' && data) {
      const snap = JSON.parse(data) as Snapshot;
      this.lines = snap.lines;
      this.done = snap.done;
      this.dests = snap.dests;
      if (this.fen !== snap.fen) {
        this.fen = snap.fen;
        this.input = snap.fen;
        history.replaceState(null, '', `/analysis?fen=${encodeURIComponent(snap.fen)}`);
      }
      this.syncBoard();
    } else {
      return;
    }
    this.ctx.redraw();
  }

  submit(): void {
    const fen = this.input.trim();
    if (fen) {
      history.replaceState(null, '', `/analysis?fen=${encodeURIComponent(fen)}`);
      this.analyse(fen);
    }
  }

  flip(): void {
    this.orientation = this.orientation === 'white' ? 'black' : 'white';
    this.ground?.set({ orientation: this.orientation });
    this.ctx.redraw();
  }

  mountBoard(el: HTMLElement): void {
    this.ground = Chessground(el, {
      coordinates: true,
      orientation: this.orientation,
      drawable: { enabled: false, visible: true },
      movable: { free: false, showDests: true, events: { after: (orig, dest) => this.onBoardMove(orig, dest) } },
    });
    this.syncBoard();
  }

  unmountBoard(): void {
    this.ground?.destroy();
    this.ground = null;
  }

  /** A move made on the board: the position after it is analysed next. */
  private onBoardMove(orig: string, dest: string): void {
    const pawn = this.ground?.state.pieces.get(dest as Key)?.role === 'pawn';
    this.play([uciOf(orig, dest, pawn)]);
  }

  /** Analyses the position after `moves` (UCI) from the one shown. */
  play(moves: string[]): void {
    if (!this.fen || moves.length === 0) return;
    this.analyse(null, `fen=${encodeURIComponent(this.fen)}&moves=${moves.join('%20')}`);
  }

  private syncBoard(): void {
    if (!this.ground || !this.fen) return;
    const dests = new Map(Object.entries(this.dests).map(([from, tos]) => [from as Key, tos.map((t) => t as Key)]));
    this.ground.set({
      fen: this.fen,
      orientation: this.orientation,
      turnColor: turnOf(this.fen),
      movable: { color: dests.size > 0 ? turnOf(this.fen) : undefined, dests },
    });
    const brushes = ['green', 'blue', 'yellow'];
    this.ground.setAutoShapes(
      this.lines
        .filter((l) => l.uci[0])
        .map((l, i) => {
          const [o, d] = squaresOf(l.uci[0]!);
          return { orig: o as Key, dest: d as Key, brush: brushes[i] ?? 'paleGrey' };
        }),
    );
  }

  title(): string {
    return t('analysis.title');
  }

  destroy(): void {
    this.gone = true;
    this.abort?.abort();
    this.abort = null;
  }
}
