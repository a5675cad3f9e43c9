//! The review page's controller (`/game/{id}/review`): loads the review or
//! starts it, follows its progress over server-sent events, and keeps what
//! the page shows — the selected ply, the step of the engine's line being
//! shown — and the board (a view-only chessground with arrows). When the
//! page's language changes, the review is read again in it.
import { Chessground } from '@lichess-org/chessground';
import type { Api } from '@lichess-org/chessground/api';
import type { Config } from '@lichess-org/chessground/config';
import type { Key } from '@lichess-org/chessground/types';
import { ApiError } from '../api.js';
import { lang, t } from '../i18n.js';
import type { Controller, Ctx } from '../page.js';
import {
  type Arrow,
  getReview,
  type MoveReview,
  moveArrows,
  nextLabelled,
  type ReviewAnswer,
  reviewEventsUrl,
  squaresOf,
  startReview,
} from './data.js';

type Done = Extract<ReviewAnswer, { status: 'done' }>;

/** The review page. */
export class ReviewCtrl implements Controller {
  /** The finished review, once known. */
  data: Done | null = null;
  /** Positions analysed so far and in all, while the review runs. */
  progress: { done: number; total: number } | null = null;
  /** Whether the review waits for a free engine. */
  queued = false;
  /** What went wrong, to show. */
  error: string | null = null;
  /** The position shown: plies played (0 = the start). */
  ply = 0;
  /** Moves of the selected move's best line being shown (null: the game itself). */
  lineStep: number | null = null;
  orientation: 'white' | 'black' = 'white';
  private ground: Api | null = null;
  private events: EventSource | null = null;
  private gone = false;
  private readonly onKey = (e: KeyboardEvent) => this.key(e);

  constructor(
    private readonly ctx: Ctx,
    readonly id: string,
  ) {
    void this.load(true);
    document.addEventListener('keydown', this.onKey);
  }

  /** The language a re-read of the review was asked in, while it runs. */
  private relang: string | null = null;

  /**
   * Follows a switch of the page's language: the review's texts (labels,
   * explanations) are the server's, rendered per language, so they are read
   * again in the new one. Called on every render; does nothing when they match.
   */
  followLang(): void {
    const want = lang();
    if (!this.data || this.data.lang === want || this.relang === want) return;
    this.relang = want;
    getReview(this.id, want)
      .then((a) => {
        if (this.relang === want) this.relang = null;
        this.take(a);
      })
      .catch((e: unknown) => {
        this.relang = null;
        this.fail(e);
      });
  }

  private async load(start: boolean): Promise<void> {
    try {
      const first = await getReview(this.id, lang());
      const a = first.status === 'none' && start ? await startReview(this.id) : first;
      this.take(a);
    } catch (e) {
      this.fail(e);
    }
  }

  private fail(e: unknown): void {
    if (e instanceof ApiError) {
      if (e.code === 'not_over') this.error = t('review.notOver');
      else if (e.code === 'aborted') this.error = t('review.aborted');
      else if (e.code === 'rate_limited') this.error = t('review.busy');
      else if (e.status === 404) this.error = t('review.notFound');
      else if (e.code === 'network') this.error = t('error.network');
      else this.error = e.message;
    } else {
      this.error = String(e);
    }
    this.ctx.redraw();
  }

  private take(a: ReviewAnswer): void {
    if (this.gone) return;
    this.queued = a.status === 'queued';
    if (a.status === 'done') {
      // The players see the game from their own side.
      if (!this.data && a.game.you) this.orientation = a.game.you;
      this.data = a;
      this.progress = null;
      this.events?.close();
      this.events = null;
      this.ply = Math.min(this.ply, a.game.moves.length);
      this.syncBoard();
    } else if (a.status === 'running') {
      this.progress = { done: a.done, total: a.total };
    } else if (a.status === 'failed') {
      this.error = a.message;
    }
    if ((a.status === 'queued' || a.status === 'running') && !this.events) this.follow();
    this.ctx.redraw();
  }

  /** Follows the review's progress; reloads it when done. */
  private follow(): void {
    const es = new EventSource(reviewEventsUrl(this.id));
    this.events = es;
    es.addEventListener('progress', (ev) => {
      const p = JSON.parse((ev as MessageEvent<string>).data) as ReviewAnswer;
      if (p.status === 'done') {
        es.close();
        this.events = null;
        void this.load(false);
      } else {
        if (p.status === 'failed') {
          es.close();
          this.events = null;
        }
        this.take(p);
      }
    });
    es.onerror = () => {
      // The stream ends after the last event; ask where the review stands.
      es.close();
      if (this.events === es) {
        this.events = null;
        if (!this.gone && !this.data) setTimeout(() => void this.load(false), 1000);
      }
    };
  }

  /** The reviewed move shown, if the position is after a move. */
  selected(): MoveReview | null {
    if (!this.data || this.ply === 0) return null;
    return this.data.review.moves[this.ply - 1] ?? null;
  }

  /** Shows the position after `ply` plies. */
  goTo(ply: number): void {
    if (!this.data) return;
    this.ply = Math.max(0, Math.min(ply, this.data.game.moves.length));
    this.lineStep = null;
    this.syncBoard();
    this.ctx.redraw();
  }

  /** Jumps to the next labelled move. */
  nextMistake(): void {
    if (!this.data) return;
    const p = nextLabelled(this.data.review, this.ply);
    if (p !== null) this.goTo(p);
  }

  /** Starts showing the engine's line from the position before the selected move, or steps through it (`delta` moves). */
  stepLine(delta: number): void {
    const m = this.selected();
    if (!m || m.best.fens.length === 0) return;
    const at = (this.lineStep ?? 0) + delta;
    this.lineStep = at <= 0 ? (delta < 0 ? null : 0) : Math.min(at, m.best.fens.length);
    this.syncBoard();
    this.ctx.redraw();
  }

  /** Stops showing the line. */
  closeLine(): void {
    this.lineStep = null;
    this.syncBoard();
    this.ctx.redraw();
  }

  flip(): void {
    this.orientation = this.orientation === 'white' ? 'black' : 'white';
    this.ground?.set({ orientation: this.orientation });
    this.ctx.redraw();
  }

  private key(e: KeyboardEvent): void {
    const target = e.target as HTMLElement | null;
    if (!this.data || target?.closest?.('input, textarea, select')) return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'ArrowLeft') this.goTo(this.ply - 1);
    else if (e.key === 'ArrowRight') this.goTo(this.ply + 1);
    else if (e.key === 'ArrowUp' || e.key === 'Home') this.goTo(0);
    else if (e.key === 'ArrowDown' || e.key === 'End') this.goTo(this.data.game.moves.length);
    else return;
    e.preventDefault();
  }

  /** The board's position and arrows for the current state. */
  boardState(): { fen: string; lastMove: string | null; arrows: Arrow[] } {
    const d = this.data!;
    const m = this.selected();
    if (m && this.lineStep !== null) {
      const before = this.ply >= 2 ? d.game.moves[this.ply - 2]!.fen : d.game.initial_fen;
      const fen = this.lineStep === 0 ? before : m.best.fens[this.lineStep - 1]!;
      const next = m.best.uci[this.lineStep];
      const arrows: Arrow[] = next ? [{ orig: squaresOf(next)[0], dest: squaresOf(next)[1], brush: 'green' }] : [];
      return { fen, lastMove: this.lineStep > 0 ? m.best.uci[this.lineStep - 1]! : null, arrows };
    }
    if (!m) return { fen: d.game.initial_fen, lastMove: null, arrows: [] };
    return { fen: d.game.moves[this.ply - 1]!.fen, lastMove: m.uci, arrows: moveArrows(m) };
  }

  private config(): Config {
    const s = this.boardState();
    const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    return {
      fen: s.fen,
      orientation: this.orientation,
      viewOnly: true,
      coordinates: true,
      lastMove: s.lastMove ? (squaresOf(s.lastMove) as Key[]) : undefined,
      animation: { enabled: !reduced, duration: 160 },
      drawable: {
        enabled: false,
        visible: true,
        autoShapes: s.arrows.map((a) => ({ orig: a.orig as Key, dest: a.dest as Key, brush: a.brush })),
      },
    };
  }

  mountBoard(el: HTMLElement): void {
    this.ground = Chessground(el, this.config());
  }

  unmountBoard(): void {
    this.ground?.destroy();
    this.ground = null;
  }

  private syncBoard(): void {
    if (!this.ground) return;
    const c = this.config();
    this.ground.set(c);
    this.ground.setAutoShapes(c.drawable?.autoShapes ?? []);
  }

  title(): string {
    return t('review.title');
  }

  destroy(): void {
    this.gone = true;
    this.events?.close();
    this.events = null;
    document.removeEventListener('keydown', this.onKey);
  }
}
