//! One puzzle being solved, shared by the trainer, Puzzle Streak and Puzzle
//! Storm: the opponent's move shown (from the position in the PGN's `FEN`
//! tag to `game.fen`), the player's moves compared with the solution's UCI
//! (a mate the server confirms is right too), the site playing the
//! replies, a wrong move ending the attempt, the hint (the piece to move),
//! the solution played out, and retrying. Every position and legal move is
//! the server's (`/api/positions/inspect` through the exercises' board).
import type { DrawShape } from '@lichess-org/chessground/draw';
import type { Key as Square } from '@lichess-org/chessground/types';
import { h, type VNode } from 'snabbdom';
import type { Color } from '../api.js';
import { type Key, t } from '../i18n.js';
import { inspect, type LegalMove } from '../learn/exercises/api.js';
import { turnOf } from '../learn/exercises/board.js';
import { PlayBoard, type Shown } from '../learn/exercises/play.js';
import { errorText, roleText, san } from '../learn/exercises/widget.js';
import { play as sound } from '../sound.js';
import type { PuzzleData } from './api.js';
import { fenTag } from './model.js';

/** Where a round stands. */
export type RoundState = 'loading' | 'play' | 'wait' | 'fail' | 'win' | 'view';

/** How a round first ended: solved, failed by a wrong move, or given up by viewing the solution. */
export type Outcome = 'win' | 'fail' | 'view';

/** What a round asks of its page. */
export interface RoundHost {
  redraw(): void;
  /** Is the page still shown? */
  alive(): boolean;
  /** The round ended for the first time (a retry's result is not reported). */
  ended(round: PuzzleRound, outcome: Outcome): void;
  /** The player made a move (right or wrong). */
  moved?(): void;
}

/** Timing of a round, in milliseconds. */
export interface Pace {
  /** The opponent's move is shown after this long (0: at once, without the position before it). */
  intro: number;
  /** The site's replies come after this long. */
  reply: number;
}

export const TRAINER_PACE: Pace = { intro: 500, reply: 450 };

/** A line for the player. */
export interface RoundFeedback {
  kind: 'ok' | 'bad' | 'info';
  /** Translated when shown, so that a language switch changes it. */
  key: Key;
  params?: Record<string, string | number>;
  /** A text already made (an error). */
  text?: string;
}

/** The text of a feedback line. */
export function feedbackText(fb: RoundFeedback): string {
  return fb.text ?? t(fb.key, fb.params);
}

/** Does the server's SAN give check? */
function givesCheck(s: string): boolean {
  return /[+#]$/.test(s);
}

const ROLE_LETTERS: Record<string, string> = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight' };

/** The kind of piece a SAN moves (English letters, as the server writes it). */
function roleOfSan(s: string): string {
  if (s.startsWith('O-O')) return 'king';
  return ROLE_LETTERS[s[0] ?? ''] ?? 'pawn';
}

let rounds = 0;

/** A puzzle round. */
export class PuzzleRound {
  readonly board: PlayBoard;
  /** The solver's side (to move in `game.fen`), at the bottom. */
  readonly color: Color;
  state: RoundState = 'loading';
  /** Index in the solution of the next move. */
  step = 0;
  /** How the round first ended. */
  outcome: Outcome | null = null;
  feedback: RoundFeedback | null = null;
  /** The square of the piece the hint shows. */
  hint: string | null = null;
  /** The solution's SAN so far, while it is shown. */
  line: string[] = [];
  private timers = new Set<ReturnType<typeof setTimeout>>();
  /** Counts the round's starts, so that a stale continuation stops. */
  private run = 0;
  /** Names the round's board element: a new round gets a new board. */
  private readonly serial = ++rounds;

  constructor(
    readonly data: PuzzleData,
    private readonly host: RoundHost,
    private readonly pace: Pace = TRAINER_PACE,
  ) {
    this.color = turnOf(data.game.fen);
    this.board = new PlayBoard(fenTag(data.game.pgn) ?? data.game.fen, this.color, {
      play: (m) => void this.play(m),
      redraw: () => host.redraw(),
      fail: (e) => this.error(e),
      alive: () => host.alive(),
    });
  }

  get id(): string {
    return this.data.puzzle.id;
  }

  get solution(): readonly string[] {
    return this.data.puzzle.solution;
  }

  /** The position the solver faces. */
  private startPos(): Shown {
    // The opponent's move is the PGN's last word, in the server's SAN.
    const last = this.data.game.pgn.trim().split(/\s+/).pop() ?? '';
    return { fen: this.data.game.fen, lastMove: this.data.game.lastMove, check: givesCheck(last) };
  }

  /** Shows the opponent's move, then offers the player's moves. */
  start(): void {
    const run = this.reset();
    const before = fenTag(this.data.game.pgn);
    if (before && this.pace.intro > 0) {
      this.board.end({ fen: before });
      this.host.redraw();
      this.later(this.pace.intro, () => void this.enter(run));
    } else void this.enter(run);
  }

  /** Tries the puzzle again from its position (after a failure). */
  retry(): void {
    if (this.state !== 'fail' && this.state !== 'view') return;
    void this.enter(this.reset());
  }

  private reset(): number {
    this.clearTimers();
    this.step = 0;
    this.hint = null;
    this.line = [];
    this.feedback = null;
    this.state = 'loading';
    return ++this.run;
  }

  private async enter(run: number): Promise<void> {
    const r = await this.board.goTo(this.startPos());
    if (!r || run !== this.run) return;
    this.state = 'play';
    this.feedback = { kind: 'info', key: this.color === 'white' ? 'puzzle.findWhite' : 'puzzle.findBlack' };
    this.host.redraw();
  }

  /** The player chose `m`. */
  private async play(m: LegalMove): Promise<void> {
    if (this.state !== 'play') return;
    const run = this.run;
    this.hint = null;
    this.host.moved?.();
    sound(m.san.includes('x') ? 'capture' : 'move');
    if (m.uci === this.solution[this.step]) return this.right(m, run);
    // Another move is right only if it mates, as the server says.
    this.state = 'wait';
    this.board.pending(m);
    this.host.redraw();
    try {
      const r = await inspect(m.fen);
      if (!this.host.alive() || run !== this.run) return;
      if (r.valid && r.status === 'checkmate') {
        this.board.end({ fen: m.fen, lastMove: m.uci, check: true });
        return this.won();
      }
    } catch {
      // Judged by the solution alone.
      if (!this.host.alive() || run !== this.run) return;
    }
    this.failed(m);
  }

  private async right(m: LegalMove, run: number): Promise<void> {
    this.step++;
    const at = { fen: m.fen, lastMove: m.uci, check: givesCheck(m.san) };
    if (this.step >= this.solution.length) {
      this.board.end(at);
      return this.won();
    }
    this.state = 'wait';
    this.feedback = { kind: 'ok', key: 'puzzle.best' };
    this.host.redraw();
    const r = await this.board.goTo(at, true);
    if (!r || run !== this.run) return;
    const reply = r.moves?.find((x) => x.uci === this.solution[this.step]);
    if (!reply) return this.error(t('puzzle.error.line'));
    this.later(this.pace.reply, async () => {
      this.step++;
      sound(reply.san.includes('x') ? 'capture' : 'move');
      const next = { fen: reply.fen, lastMove: reply.uci, check: givesCheck(reply.san) };
      if (this.step >= this.solution.length) {
        this.board.end(next);
        return this.won();
      }
      const r2 = await this.board.goTo(next);
      if (!r2 || run !== this.run) return;
      this.state = 'play';
      this.host.redraw();
    });
  }

  private won(): void {
    this.state = 'win';
    this.feedback = { kind: 'ok', key: 'puzzle.solved' };
    sound('end');
    this.finish('win');
  }

  private failed(m: LegalMove): void {
    this.state = 'fail';
    this.board.end({ fen: m.fen, lastMove: m.uci }, [{ orig: m.uci.slice(2, 4) as Square, brush: 'red' }]);
    this.feedback = { kind: 'bad', key: 'puzzle.wrong', params: { move: san(m.san) } };
    this.finish('fail');
  }

  private finish(outcome: Outcome): void {
    const first = this.outcome === null;
    this.outcome ??= outcome;
    this.host.redraw();
    if (first) this.host.ended(this, outcome);
  }

  /** Highlights the piece to move (the round still counts). */
  showHint(): void {
    if (this.state !== 'play') return;
    const uci = this.solution[this.step]!;
    const m = this.board.moves?.find((x) => x.uci === uci);
    this.hint = uci.slice(0, 2);
    const shape: DrawShape = { orig: this.hint as Square, brush: 'green' };
    this.board.show([shape]);
    this.feedback = { kind: 'info', key: 'puzzle.hintText', params: { piece: roleText(m ? roleOfSan(m.san) : 'pawn') } };
    this.host.redraw();
  }

  /** Plays the whole solution out from the puzzle's position (a round not yet over is lost). */
  viewSolution(): void {
    if (this.state === 'view' || this.state === 'loading' || this.state === 'win') return;
    const run = this.reset();
    this.state = 'view';
    this.feedback = { kind: 'info', key: 'puzzle.solutionShown', params: { line: '…' } };
    if (this.outcome === null) this.finish('view');
    else this.host.redraw();
    void this.playOut(run);
  }

  private async playOut(run: number): Promise<void> {
    let at: Shown = this.startPos();
    for (const uci of this.solution) {
      const r = await this.board.goTo(at, true);
      if (!r || run !== this.run) return;
      const m = r.moves?.find((x) => x.uci === uci);
      if (!m) return this.error(t('puzzle.error.line'));
      await this.wait(this.pace.reply);
      if (!this.host.alive() || run !== this.run) return;
      at = { fen: m.fen, lastMove: m.uci, check: givesCheck(m.san) };
      this.line.push(san(m.san));
      this.board.end(at);
      this.feedback = { kind: 'info', key: 'puzzle.solutionShown', params: { line: this.line.join(' ') } };
      this.host.redraw();
    }
    this.board.end(at);
    this.host.redraw();
  }

  private error(e: unknown): void {
    this.feedback = { kind: 'bad', key: 'puzzle.error.line', text: typeof e === 'string' ? e : errorText(e) };
    this.host.redraw();
  }

  private later(ms: number, f: () => void | Promise<void>): void {
    const id = setTimeout(() => {
      this.timers.delete(id);
      if (this.host.alive()) void f();
    }, ms);
    this.timers.add(id);
  }

  private wait(ms: number): Promise<void> {
    return new Promise((ok) => this.later(ms, ok));
  }

  private clearTimers(): void {
    for (const id of this.timers) clearTimeout(id);
    this.timers.clear();
  }

  /** Stops the round's timers (the page is left or the next round starts). */
  destroy(): void {
    this.clearTimers();
    this.run++;
  }

  /** The board, named for tests by the puzzle it shows and the round's state. */
  vnode(): VNode {
    const attrs: Record<string, string> = { 'data-testid': 'puzzle-board', 'data-puzzle-id': this.id, 'data-state': this.state, 'data-color': this.color };
    if (this.hint) attrs['data-hint'] = this.hint;
    return h('div.puzzle-board', { key: `round-${this.serial}`, attrs }, [this.board.vnode()]);
  }
}

/** The feedback line (always present, so that screen readers hear it change). */
export function roundFeedbackView(round: PuzzleRound | null, fallback: string | null = null): VNode {
  const fb = round?.feedback;
  const text = fb ? feedbackText(fb) : fallback;
  return h(
    'div.ex-feedback.puzzle-feedback',
    {
      class: { ok: fb?.kind === 'ok', bad: fb?.kind === 'bad' },
      attrs: { 'data-testid': 'puzzle-feedback', 'data-state': round?.state ?? 'loading', role: 'status', 'aria-live': 'polite' },
    },
    text ? [h('p', text)] : [],
  );
}

/** A small button; `testid` names it for tests. */
export function puzzleButton(label: string, onClick: () => void, testid: string, opts: { primary?: boolean; disabled?: boolean } = {}): VNode {
  return h(
    'button.button',
    { class: { primary: !!opts.primary }, attrs: { type: 'button', 'data-testid': testid }, props: { disabled: !!opts.disabled }, on: { click: onClick } },
    label,
  );
}

/** The translation key of a difficulty. */
export function difficultyKey(d: string): Key {
  const keys: Record<string, Key> = {
    easiest: 'puzzle.difficulty.easiest',
    easier: 'puzzle.difficulty.easier',
    normal: 'puzzle.difficulty.normal',
    harder: 'puzzle.difficulty.harder',
    hardest: 'puzzle.difficulty.hardest',
  };
  return keys[d] ?? 'puzzle.difficulty.normal';
}
