//! The analysis board's controller (`/analysis?fen=…`, `/analysis?game={id}&ply=N`
//! or `/analysis/{id}/{ply}`): a tree of moves (a FEN, a finished game's
//! moves as the main line, or an imported PGN with its variations), the
//! node shown and the keys and buttons that walk the tree, moves played on
//! the board (the server gives their SAN, position and legal moves; a new
//! move from an earlier position becomes a variation), the engine's three
//! best lines of the node deepening live over server-sent events, FEN and
//! PGN in and out.
import { Chessground } from '@lichess-org/chessground';
import type { Api } from '@lichess-org/chessground/api';
import type { Key } from '@lichess-org/chessground/types';
import { ApiError, call } from '../api.js';
import { t } from '../i18n.js';
import type { Controller, Ctx } from '../page.js';
import { squaresOf } from '../review/data.js';
import { type Line, type Snapshot, START_FEN, type Source, turnOf, uciOf } from './source.js';
import { lineEnd, MoveTree, type NodeData, stepBack, stepForward, type TreeNode, treePgn } from './tree.js';

/** The analysis board. */
export class AnalysisCtrl implements Controller {
  /** The moves explored so far (null until the server gave the start). */
  tree: MoveTree | null = null;
  /** The node shown. */
  node: TreeNode | null = null;
  /** The FEN being analysed (known once the tree is loaded). */
  fen: string | null = null;
  /** The FEN in the input box. */
  input = '';
  /** The PGN in the import box. */
  pgnInput = '';
  /** The tree written as PGN, once asked for. */
  pgnOut: string | null = null;
  /** The PGN tags of the game or PGN loaded, kept for the export. */
  tags: Array<[string, string]> = [];
  lines: Line[] = [];
  done = false;
  running = false;
  error: string | null = null;
  orientation: 'white' | 'black' = 'white';
  private ground: Api | null = null;
  private abort: AbortController | null = null;
  private gone = false;
  /** Moves being sent to the server, played one after another. */
  private moving: Promise<void> = Promise.resolve();
  private readonly onKey = (e: KeyboardEvent) => this.key(e);

  constructor(
    private readonly ctx: Ctx,
    readonly source: Source,
  ) {
    document.addEventListener('keydown', this.onKey);
    // Not within the constructor: loading redraws, and the app has no page yet.
    queueMicrotask(() => {
      if (this.gone) return;
      if ('fen' in source) void this.load({ fen: source.fen });
      else void this.load({ game: source.game }, source.ply);
    });
  }

  /** Replaces the tree with the server's for `req` (a FEN, a game or a PGN) and shows node `ply` of its main line. */
  async load(req: { fen: string } | { game: string } | { pgn: string }, ply = 0): Promise<boolean> {
    try {
      const a = await call<{ nodes: NodeData[]; tags?: Array<[string, string]> }>('POST', '/api/analysis/tree', req);
      if (this.gone) return false;
      this.tree = MoveTree.of(a.nodes);
      this.tags = a.tags ?? [];
      this.pgnOut = null;
      const main = this.tree.mainline();
      this.goTo(main[Math.max(0, Math.min(ply, main.length - 1))]!);
      return true;
    } catch (e) {
      this.fail(e);
      return false;
    }
  }

  private fail(e: unknown): void {
    if (e instanceof ApiError) {
      if (e.code === 'not_over') this.error = t('review.notOver');
      else if (e.status === 404) this.error = t('review.notFound');
      else if (e.code === 'network') this.error = t('error.network');
      else this.error = e.message;
    } else {
      this.error = e instanceof Error ? e.message : String(e);
    }
    this.ctx.redraw();
  }

  /** Shows `node` and analyses it, replacing any analysis under way. */
  goTo(node: TreeNode): void {
    if (this.gone) return;
    this.node = node;
    this.analyse(node.fen);
  }

  /** Goes back one move (`←`), forward along the main line (`→`), to the start (`↑`, Home) or the end (`↓`, End). */
  step(where: 'back' | 'forward' | 'start' | 'end'): void {
    const n = this.node;
    if (!n || !this.tree) return;
    const to = where === 'back' ? stepBack(n) : where === 'forward' ? stepForward(n) : where === 'start' ? this.tree.root : lineEnd(n);
    if (to !== n) this.goTo(to);
  }

  private key(e: KeyboardEvent): void {
    const target = e.target as HTMLElement | null;
    if (!this.tree || e.altKey || e.ctrlKey || e.metaKey || target?.closest?.('input, textarea, select')) return;
    const where = ({ ArrowLeft: 'back', ArrowRight: 'forward', ArrowUp: 'start', Home: 'start', ArrowDown: 'end', End: 'end' } as const)[e.key as 'ArrowLeft'];
    if (!where) return;
    e.preventDefault();
    this.step(where);
  }

  /** Analyses `fen`, replacing any analysis under way. */
  private analyse(fen: string): void {
    this.abort?.abort();
    this.lines = [];
    this.done = false;
    this.error = null;
    this.fen = fen;
    this.input = fen;
    this.running = this.hasMoves();
    if (this.running) void this.open(`/api/analysis/stream?fen=${encodeURIComponent(fen)}&movetime_ms=10000`);
    this.syncBoard();
    this.ctx.redraw();
  }

  /** Whether the position shown has a legal move (none: the game is over there). */
  hasMoves(): boolean {
    return Object.keys(this.node?.dests ?? {}).length > 0;
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
      if (snap.fen !== this.fen) return;
      this.lines = snap.lines;
      this.done = snap.done;
      this.syncBoard();
    } else {
      return;
    }
    this.ctx.redraw();
  }

  /** Starts a new tree from the FEN typed in. */
  submit(): void {
    const fen = this.input.trim();
    if (!fen) return;
    void this.load({ fen }).then((ok) => {
      if (ok) history.replaceState(null, '', `/analysis?fen=${encodeURIComponent(fen)}`);
    });
  }

  /** Replaces the tree with the PGN typed in (its main line and variations). */
  importPgn(): void {
    const pgn = this.pgnInput.trim();
    if (!pgn) return;
    void this.load({ pgn }).then((ok) => {
      if (ok) this.pgnInput = '';
    });
  }

  /** Writes the tree as PGN into the export box. */
  exportPgn(): void {
    if (!this.tree) return;
    this.pgnOut = treePgn(this.tree, START_FEN, this.tags);
    this.ctx.redraw();
  }

  /** Makes the line of the node shown the main line. */
  promote(): void {
    if (!this.tree || !this.node) return;
    this.tree.promote(this.node);
    this.ctx.redraw();
  }

  /** Deletes the node shown and what follows it, showing its parent. */
  deleteNode(): void {
    const n = this.node;
    if (!this.tree || !n?.parent) return;
    this.tree.remove(n);
    this.goTo(n.parent);
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

  /** Plays `moves` (UCI) from the node shown, following moves already in the tree and asking the server for new ones. */
  play(moves: string[]): void {
    const from = this.node;
    if (!from) return;
    this.moving = this.moving.then(async () => {
      let at = from;
      for (const uci of moves) {
        const known = at.children.find((c) => c.uci === uci);
        if (known) {
          at = known;
          continue;
        }
        try {
          const n = await call<NodeData>('POST', '/api/analysis/move', { fen: at.fen, uci });
          if (this.gone || !this.tree) return;
          at = this.tree.add(at, n);
        } catch (e) {
          this.fail(e);
          this.syncBoard();
          break;
        }
      }
      if (at !== from) this.goTo(at);
    });
  }

  private syncBoard(): void {
    const node = this.node;
    if (!this.ground || !node) return;
    const dests = new Map(Object.entries(node.dests).map(([from, tos]) => [from as Key, tos.map((t) => t as Key)]));
    this.ground.set({
      fen: node.fen,
      orientation: this.orientation,
      turnColor: turnOf(node.fen),
      lastMove: node.uci ? (squaresOf(node.uci) as Key[]) : undefined,
      movable: { color: dests.size > 0 ? turnOf(node.fen) : undefined, dests },
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
    document.removeEventListener('keydown', this.onKey);
    this.abort?.abort();
    this.abort = null;
  }
}
