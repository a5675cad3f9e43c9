//! The game page's controller: the game state kept in step with the server
//! through the game socket, what the viewer is doing (history view, typed
//! move, promotion choice, resign confirmation, New game dialog), the board
//! (mounted and disposed by the view's hooks) and the announcements.
//! Table games (kind "table") add two clocks counted down from the server's
//! state, premoves, draw offers sent with a move, abort, resigning (the game
//! ends, the player stays for a rematch), leaving (resigning, then the lobby),
//! claims against an away opponent and rematches, and the game chat
//! (`chat.ts`). A table move says whether the tab lost the focus since the
//! player's previous move (`blur`: fair play reads it, as lichess does).
//! `destroy()` closes the socket and removes every listener and timer.
import { Chessground } from '@lichess-org/chessground';
import type { Api } from '@lichess-org/chessground/api';
import type { Key as SquareKey } from '@lichess-org/chessground/types';
import { ApiError, type ClaimReason, type Color, type GameState, getGame, socketUrl } from '../api.js';
import { formatClock, isLow, type ReceivedClock, remaining } from '../clock.js';
import { errorText } from '../errors.js';
import { boardConfig, canMove, colorOfPly, isPromotion } from '../ground.js';
import { currentLetters, type Key, t, tp } from '../i18n.js';
import { NewGameCtrl } from '../newgame/ctrl.js';
import { legalMoves, localiseSan, type PromotionRole, resolveInput, sanOf } from '../notation.js';
import type { Controller, Ctx } from '../page.js';
import { outcomeText } from '../result.js';
import { type GameEvent, GameSocket, RequestError } from '../socket.js';
import { changePrefs, prefs } from '../prefs.js';
import { play, soundEnabled } from '../sound.js';
import { arenaOfGame, goBerserk } from '../tournaments/api.js';
import { arenaErrorText } from '../tournaments/model.js';
import { ChatCtrl } from './chat.js';
import { FocusWatch } from './focus.js';
import { hasClock, isTableGame, opposite } from './model.js';

const PROMO_CHAR: Record<PromotionRole, string> = { queen: 'q', rook: 'r', bishop: 'b', knight: 'n' };

/** Delay before an announcement is spoken, after clearing the live region (so repeats are read). */
const ANNOUNCE_DELAY_MS = 30;

/** How often running clocks are looked at (the view is redrawn only when a shown time changes). */
const CLOCK_TICK_MS = 100;

/** What the game page's owner may ask of it. */
export interface GameOptions {
  /** The players agreed on a rematch: show game `id` (default: open `/game/{id}`). */
  onNextGame?: (id: string) => void;
}

/** State and actions of the game page. */
export class GameCtrl implements Controller {
  game: GameState | null = null;
  /** Loading failed: 'missing' (no such game) or 'network'. */
  loadError: 'missing' | 'network' | null = null;
  orientation: Color = 'white';
  /** A move of ours is in flight. */
  pending = false;
  /** Plies shown when looking back through the game; null shows the game itself. */
  viewPly: number | null = null;
  promotion: { from: string; to: string } | null = null;
  confirmingResign = false;
  /** A move chosen on the board that waits for its confirmation (UCI). */
  unconfirmed: string | null = null;
  connected = true;
  gone = false;
  feedback = '';
  /** The move being typed. */
  input = '';
  claimWithMove = false;
  /** The live region's text. */
  announcement = '';
  /** The New game dialog's form, while the dialog is open. */
  newGame: NewGameCtrl | null = null;
  /** Table games: offer a draw with the next move. */
  offerDraw = false;
  /** Table games: the "leave the table?" confirmation is open. */
  confirmingLeave = false;
  /** Table games: the server's clocks and when they arrived. */
  clock: ReceivedClock | null = null;
  /** The Arena this game was paired in (its page is linked), if any. */
  arena: { id: string; fullName: string; berserkable: boolean } | null = null;
  /** Why going berserk was refused. */
  berserkError: string | null = null;
  /** Table games: the time left to make the first move, and when it was received. */
  deadline: { ms: number; at: number } | null = null;

  private ticker: ReturnType<typeof setInterval> | null = null;
  /** The clock texts last drawn, to redraw only when they change. */
  private drawnClocks = '';
  private lowTimeWarned = false;
  private followedRematch = false;

  /** Table games: the chat room the viewer reads. */
  readonly chat = new ChatCtrl(
    (room, text) => this.socket?.request({ t: 'chat', room, text }) ?? Promise.reject(new RequestError('disconnected', 'not connected')),
    () => this.redraw(),
  );

  private socket: GameSocket | null = null;
  private ground: Api | null = null;
  private timers = new Set<ReturnType<typeof setTimeout>>();
  private alive = true;
  private readonly cleanups: Array<() => void> = [];
  /** Did the tab lose the focus since the player's last move? */
  private readonly focus = new FocusWatch({ window, document });

  constructor(
    readonly ctx: Ctx,
    readonly id: string,
    private readonly options: GameOptions = {},
  ) {
    this.listen(document, 'keydown', (e) => this.onKey(e as KeyboardEvent));
    this.cleanups.push(() => this.focus.destroy());
    getGame(id)
      .then((g) => {
        if (!this.alive) return;
        this.onState(g, null);
        if (isTableGame(g)) {
          void arenaOfGame(id).then((a) => {
            this.arena = a;
            this.redraw();
          });
        }
        this.socket = new GameSocket((v) => socketUrl(id, v), g.v, {
          state: (next, event) => this.onState(next, event),
          connection: (open) => {
            this.connected = open;
            this.redraw();
          },
          error: (code) => {
            this.feedback = errorText(code);
            this.redraw();
          },
          gone: () => {
            this.gone = true;
            this.redraw();
          },
          chatHistory: (room, lines) => this.chat.history(room, lines),
          chat: (line) => this.chat.heard(line),
        });
        this.socket.known(g);
        this.listen(window, 'pagehide', () => this.socket?.close());
        this.listen(window, 'offline', () => this.socket?.drop());
        this.listen(window, 'online', () => this.socket?.retryNow());
      })
      .catch((e: unknown) => {
        if (!this.alive) return;
        this.loadError = e instanceof ApiError && (e.status === 404 || e.code === 'not_found') ? 'missing' : 'network';
        this.redraw();
      });
  }

  /** May the viewer go berserk now: an Arena game that allows it, before their own first move, not berserk yet. */
  canBerserk(): boolean {
    const g = this.game;
    if (!this.arena?.berserkable || !g || g.status !== 'ongoing' || !g.you || !g.clock) return false;
    const moved = g.you === 'white' ? g.ply >= 1 : g.ply >= 2;
    return !moved && !g.clock[`${g.you}_berserk`];
  }

  /** Goes berserk: half the time, no increment, a point more for a long win. */
  berserk(): void {
    this.berserkError = null;
    goBerserk(this.id)
      .catch((e: unknown) => {
        this.berserkError = arenaErrorText(e);
      })
      .finally(() => this.redraw());
  }

  private listen(target: EventTarget, type: string, f: (e: Event) => void): void {
    target.addEventListener(type, f);
    this.cleanups.push(() => target.removeEventListener(type, f));
  }

  private later(f: () => void, ms: number): void {
    const id = setTimeout(() => {
      this.timers.delete(id);
      f();
    }, ms);
    this.timers.add(id);
  }

  title(): string {
    if (!this.game) return t('site.name');
    if (isTableGame(this.game)) return `${this.seatLabel('white')} – ${this.seatLabel('black')} · ${t('site.name')}`;
    return `${this.computerName()} · ${t('site.name')}`;
  }

  /** A player's username (or how the seat is named). */
  seatLabel(c: Color): string {
    const seat = this.game?.[c];
    return seat?.kind === 'user' && seat.name ? seat.name : t(`color.${c}` as Key);
  }

  destroy(): void {
    this.alive = false;
    this.socket?.close();
    this.socket = null;
    for (const f of this.cleanups.splice(0)) f();
    for (const id of this.timers) clearTimeout(id);
    this.timers.clear();
    this.stopTicker();
  }

  redraw(): void {
    if (!this.alive) return;
    this.drawnClocks = this.clockFace();
    this.ctx.redraw();
  }

  /** "Computer · Beginner" for this game's level. */
  computerName(): string {
    const level = this.game?.level ? t(`level.${this.game.level}` as Key) : '';
    return t('game.vsComputer', { level });
  }

  // --- The board: mounted by the view's insert hook, disposed by its destroy hook.

  mountBoard(el: HTMLElement): void {
    if (!this.game) return;
    const config = this.boardConfig();
    this.ground = Chessground(el, {
      ...config,
      movable: { ...config.movable, events: { after: (orig, dest, meta) => this.onBoardMove(orig, dest, meta.premove) } },
    });
  }

  unmountBoard(): void {
    this.ground?.destroy();
    this.ground = null;
  }

  private boardConfig() {
    const reducedMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    const p = prefs();
    return boardConfig(this.game!, { orientation: this.orientation, pending: this.pending, ply: this.viewPly, reducedMotion, premoves: hasClock(this.game) && p.premove, coords: p.coords });
  }

  /** Sends the board the configuration for the current state (only when it may have changed: it clears drawn arrows). */
  private syncBoard(): void {
    if (this.game && this.ground) this.ground.set(this.boardConfig());
  }

  // --- Actions.

  /** Shows the position after `ply` plies (null or the last ply: the game itself). */
  viewAt(ply: number | null): void {
    if (!this.game) return;
    this.viewPly = ply === null || ply >= this.game.moves.length ? null : Math.max(0, ply);
    this.syncBoard();
    this.redraw();
  }

  flip(): void {
    this.orientation = this.orientation === 'white' ? 'black' : 'white';
    this.syncBoard();
    this.redraw();
  }

  toggleSound(): void {
    void changePrefs({ sound: !soundEnabled() }, this.ctx.account() !== null).finally(() => this.redraw());
  }

  askResign(): void {
    if (!prefs().confirmResign) {
      this.resign();
      return;
    }
    this.confirmingResign = true;
    this.redraw();
    focus('[data-testid="resign-confirm"]');
  }

  cancelResign(): void {
    this.confirmingResign = false;
    this.redraw();
    focus('[data-testid="resign"]');
  }

  openNewGame(): void {
    this.newGame ??= new NewGameCtrl(
      () => this.redraw(),
      (path) => this.ctx.navigate(path),
    );
    this.redraw();
  }

  closeNewGame(): void {
    if (!this.newGame) return;
    this.newGame = null;
    this.redraw();
  }

  private onBoardMove(from: SquareKey, to: SquareKey, premove = false): void {
    if (!this.game) return;
    this.feedback = '';
    let uci: string = from + to;
    if (isPromotion(this.game, from, to)) {
      const auto = prefs().autoQueen;
      if (!(auto === 'always' || (auto === 'premove' && premove))) {
        this.askPromotion(from, to);
        return;
      }
      uci += 'q';
    }
    if (this.needsConfirmation()) {
      this.unconfirmed = uci;
      this.redraw();
      focus('[data-testid="confirm-move-yes"]');
      return;
    }
    void this.sendMove(uci);
  }

  /** Does a move wait for a confirmation here (the preference; `correspondence`: games without a clock)? */
  private needsConfirmation(): boolean {
    const c = prefs().confirmMove;
    return c === 'always' || (c === 'correspondence' && !this.game?.clock);
  }

  /** Plays the move waiting for its confirmation, or puts it back. */
  confirmMove(yes: boolean): void {
    const uci = this.unconfirmed;
    this.unconfirmed = null;
    if (uci && yes) {
      void this.sendMove(uci);
      return;
    }
    this.syncBoard();
    this.redraw();
  }

  /** Zen mode: the preference, while the viewer plays this game. */
  zen(): boolean {
    return prefs().zen && this.game?.status === 'ongoing' && this.game.you !== null;
  }

  /** Leaves zen mode (the preference is switched off). */
  exitZen(): void {
    void changePrefs({ zen: false }, this.ctx.account() !== null).finally(() => this.redraw());
  }

  private askPromotion(from: string, to: string): void {
    this.promotion = { from, to };
    this.redraw();
    focus('[data-testid="promotion"] button');
  }

  /** Under FIDE rules, announces `uci` with a draw claim; false when no claim holds (nothing was played). */
  private async claimWith(sock: GameSocket, uci: string): Promise<boolean> {
    for (const reason of ['threefold_repetition', 'fifty_moves'] as const) {
      try {
        await sock.request({ t: 'claim', reason, uci });
        return true;
      } catch (e) {
        if (!(e instanceof RequestError && e.code === 'cannot_claim')) throw e;
      }
    }
    return false;
  }

  private async sendMove(uci: string): Promise<void> {
    const sock = this.socket;
    if (!sock) return;
    this.pending = true;
    this.redraw();
    try {
      const claiming = this.claimWithMove && this.game?.rules === 'fide';
      if (!claiming || !(await this.claimWith(sock, uci))) {
        await sock.request(this.moveRequest(sock, uci));
        if (claiming) this.feedback = t('game.claim.none');
      }
      this.claimWithMove = false;
      this.offerDraw = false;
      this.input = '';
    } catch (e) {
      this.feedback = errorText(e instanceof RequestError ? e.code : 'generic');
      // Put the dragged piece back.
      this.syncBoard();
    } finally {
      this.pending = false;
      this.redraw();
    }
  }

  /** The move message: with a clock, the draw offer if chosen (at tables), whether the tab lost the focus since the last move, and the lag the socket measured. */
  private moveRequest(sock: GameSocket, uci: string): Parameters<GameSocket['request']>[0] {
    if (!hasClock(this.game)) return { t: 'move', uci };
    const lag = sock.lagMs;
    const blur = this.focus.take();
    return {
      t: 'move',
      uci,
      ...(this.offerDraw && isTableGame(this.game) ? { draw_offer: true } : {}),
      ...(blur ? { blur: true } : {}),
      ...(lag !== null ? { lag_ms: lag } : {}),
    };
  }

  choosePromotion(role: PromotionRole | null): void {
    const p = this.promotion;
    this.promotion = null;
    this.redraw();
    if (!p || role === null) {
      this.syncBoard();
      if (this.game && this.game.you !== null && this.game.status === 'ongoing') focus('#move-input');
      return;
    }
    const uci = p.from + p.to + PROMO_CHAR[role];
    if (this.needsConfirmation()) {
      this.unconfirmed = uci;
      this.redraw();
      return;
    }
    void this.sendMove(uci);
  }

  setInput(text: string): void {
    this.input = text;
  }

  setClaimWithMove(on: boolean): void {
    this.claimWithMove = on;
    this.redraw();
  }

  submitTyped(): void {
    const game = this.game;
    if (!game) return;
    const text = this.input;
    if (text.trim() === '') return;
    if (!canMove(game, this.pending)) {
      this.feedback = t('game.moveInput.notYourTurn');
      this.redraw();
      return;
    }
    if (this.viewPly !== null) this.viewAt(null);
    const letters = currentLetters();
    const moves = legalMoves(game.fen, game.dests);
    const res = resolveInput(text, moves, letters);
    switch (res.kind) {
      case 'move':
        this.feedback = '';
        void this.sendMove(res.move.uci);
        return;
      case 'promotion':
        this.feedback = '';
        this.askPromotion(res.from, res.to);
        return;
      case 'ambiguous':
        this.feedback = t('game.moveInput.ambiguous', { input: text.trim(), list: res.moves.map((m) => sanOf(m, moves, letters)).join(', ') });
        break;
      case 'none':
        this.feedback = t('game.moveInput.unknown', { input: text.trim() });
        break;
    }
    this.redraw();
  }

  /** Sends `req`; answers whether the server accepted it. */
  private async ask(req: Parameters<GameSocket['request']>[0]): Promise<boolean> {
    if (!this.socket) return false;
    let ok = false;
    try {
      await this.socket.request(req);
      this.feedback = '';
      ok = true;
    } catch (e) {
      this.feedback = errorText(e instanceof RequestError ? e.code : 'generic');
    }
    this.redraw();
    return ok;
  }

  undo(): void {
    void this.ask({ t: 'undo' });
  }

  claim(reason: ClaimReason): void {
    void this.ask({ t: 'claim', reason });
  }

  resign(): void {
    this.confirmingResign = false;
    void this.ask({ t: 'resign' });
  }

  // --- Table games.

  /** Switches the draw offer that goes with the next move. */
  toggleOfferDraw(): void {
    this.offerDraw = !this.offerDraw;
    this.redraw();
  }

  acceptDraw(): void {
    void this.ask({ t: 'accept_draw' });
  }

  /** Declines the opponent's pending draw offer without moving. */
  declineDraw(): void {
    void this.ask({ t: 'decline_draw' });
  }

  /** Asks to take back one's last move, or accepts the opponent's asking (`yes`); declines or withdraws it. */
  takeback(yes: boolean): void {
    void this.ask({ t: 'takeback', yes });
  }

  abort(): void {
    void this.ask({ t: 'abort' });
  }

  claimAway(outcome: 'win' | 'draw'): void {
    void this.ask({ t: 'claim_away', outcome });
  }

  rematch(): void {
    void this.ask({ t: 'rematch' });
  }

  askLeave(): void {
    this.confirmingLeave = true;
    this.redraw();
    focus('[data-testid="leave-confirm"]');
  }

  cancelLeave(): void {
    this.confirmingLeave = false;
    this.redraw();
    focus('[data-testid="leave-table"]');
  }

  /** Leaves the table during the game: the game is resigned, then the player is back in the lobby. */
  leave(): void {
    this.confirmingLeave = false;
    void this.ask({ t: 'resign' }).then((ok) => {
      if (ok && this.alive) this.ctx.navigate('/multiplayer');
    });
  }

  /** Milliseconds left on `color`'s clock now, or null when the game has no clock. */
  clockMs(color: Color): number | null {
    return this.clock ? remaining(this.clock, color, performance.now()) : null;
  }

  /** Milliseconds left to make the first move now, or null. */
  deadlineMs(): number | null {
    return this.deadline ? Math.max(0, this.deadline.ms - (performance.now() - this.deadline.at)) : null;
  }

  /** What the clocks show now, as one string (to tell whether a redraw is needed). */
  private clockFace(): string {
    const d = this.deadlineMs();
    return [this.clockMs('white'), this.clockMs('black')].map((ms) => (ms === null ? '' : `${formatClock(ms)}${isLow(ms) ? '!' : ''}`)).join('|') + (d === null ? '' : `|${Math.ceil(d / 1000)}`);
  }

  private startTicker(): void {
    this.ticker ??= setInterval(() => this.tick(), CLOCK_TICK_MS);
  }

  private stopTicker(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
  }

  private tick(): void {
    const g = this.game;
    if (!g) return;
    const you = g.you;
    if (you && g.status === 'ongoing' && this.clock?.clock.running === you && !this.lowTimeWarned) {
      const ms = this.clockMs(you);
      if (ms !== null && isLow(ms)) {
        this.lowTimeWarned = true;
        play('lowTime');
        this.announce(t('announce.lowTime'));
      }
    }
    const face = this.clockFace();
    if (face !== this.drawnClocks) this.redraw();
  }

  // --- Server state.

  private onState(next: GameState, event: GameEvent | null): void {
    if (!this.alive) return;
    const first = this.game === null;
    const previous = this.game;
    this.game = next;
    const now = performance.now();
    this.clock = next.clock ? { clock: next.clock, at: now } : null;
    this.deadline = next.status === 'ongoing' && typeof next.first_move_deadline_ms === 'number' ? { ms: next.first_move_deadline_ms, at: now } : null;
    if (next.status === 'ongoing' && (this.clock?.clock.running || this.deadline)) this.startTicker();
    else this.stopTicker();
    if (next.status !== 'ongoing') {
      this.offerDraw = false;
      this.confirmingLeave = false;
    }
    // Any change brings the board back to the game itself.
    if (event || (this.viewPly !== null && this.viewPly >= next.moves.length)) this.viewPly = null;
    if (first && next.you) this.orientation = next.you;
    if (event) this.reactTo(next, event, previous);
    // A rematch both players agreed on: on to the next game (not when opening a finished game later).
    const following = next.rematch?.next_game;
    if (following && event && !this.followedRematch) {
      this.followedRematch = true;
      if (this.options.onNextGame) this.options.onNextGame(following);
      else this.ctx.navigate(`/game/${encodeURIComponent(following)}`);
      return;
    }
    this.syncBoard();
    if (hasClock(next) && this.ground) {
      // A premove is played once it is our turn, if the server's legal moves allow it.
      if (next.status !== 'ongoing') this.ground.cancelPremove();
      else if (canMove(next, this.pending) && this.viewPly === null) this.ground.playPremove();
    }
    this.redraw();
  }

  private announce(text: string): void {
    // Clearing first makes screen readers repeat identical messages.
    this.announcement = '';
    this.redraw();
    this.later(() => {
      this.announcement = text;
      this.redraw();
    }, ANNOUNCE_DELAY_MS);
  }

  private reactTo(g: GameState, event: GameEvent, previous: GameState | null): void {
    const letters = currentLetters();
    const table = isTableGame(g);
    const opponent = g.you ? opposite(g.you) : null;
    if (event.kind === 'move' && event.move) {
      const san = localiseSan(event.move.san, letters);
      const mover = colorOfPly(g.initial_fen, g.moves.length - 1);
      const who: Key =
        g.you === null
          ? mover === 'white'
            ? 'announce.whiteMove'
            : 'announce.blackMove'
          : mover === g.you
            ? 'announce.yourMove'
            : table
              ? 'announce.opponentMove'
              : 'announce.computerMove';
      const parts = [t(who, { move: san })];
      if (g.check && g.status === 'ongoing') parts.push(t('announce.check'));
      if (opponent && g.draw_offer === opponent && g.status === 'ongoing') parts.push(t('announce.drawOffered'));
      if (g.status !== 'ongoing') {
        const r = outcomeText(g, g.you);
        parts.push([r.headline, r.reason].filter(Boolean).join(', ') + '.');
        play('end');
      } else {
        play(g.check ? 'check' : event.move.san.includes('x') ? 'capture' : 'move');
      }
      this.announce(parts.join(' '));
    } else if (event.kind === 'undo') {
      this.announce(t('announce.undo'));
    } else if (event.kind === 'end' || (event.kind === 'clock' && g.status !== 'ongoing' && previous?.status === 'ongoing')) {
      const r = outcomeText(g, g.you);
      this.announce([r.headline, r.reason].filter(Boolean).join(', ') + '.');
      play('end');
    } else if (event.kind === 'away' && opponent && g.away && g.away[opponent] !== previous?.away?.[opponent]) {
      this.announce(t(g.away[opponent] ? 'table.away' : 'announce.opponentBack'));
    } else if (event.kind === 'rematch' && opponent && g.rematch?.offered_by === opponent) {
      this.announce(t('table.rematch.offered'));
    }
  }

  /** "12 seconds left to make the first move" while the first moves are awaited. */
  deadlineText(): string | null {
    const ms = this.deadlineMs();
    const g = this.game;
    if (ms === null || !g) return null;
    const seconds = Math.ceil(ms / 1000);
    return g.you === g.turn ? tp('table.firstMove.you', seconds) : tp('table.firstMove.other', seconds, { color: t(`color.${g.turn}` as Key) });
  }

  /** Arrow keys, Home and End step through the game, unless typing in a field. */
  private onKey(e: KeyboardEvent): void {
    const target = e.target as HTMLElement | null;
    if (!this.game || target?.closest('input, textarea, select, dialog') || e.altKey || e.ctrlKey || e.metaKey) return;
    const shown = this.viewPly ?? this.game.moves.length;
    const to = { ArrowLeft: shown - 1, ArrowRight: shown + 1, Home: 0, End: this.game.moves.length }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    this.viewAt(Math.max(0, to));
  }
}

/** Focuses the first element matching `selector`, if any (after a redraw put it in the page). */
function focus(selector: string): void {
  document.querySelector<HTMLElement>(selector)?.focus();
}
