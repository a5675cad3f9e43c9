//! What every exercise shares: its own snabbdom root inside the Learn
//! page's exercise block, redraws, the feedback line, the done mark, SAN
//! in the reader's letters, and server errors as sentences.
import { h, type VNode } from 'snabbdom';
import { ApiError } from '../../api.js';
import { currentLetters, type Key, t } from '../../i18n.js';
import { localiseSan } from '../../notation.js';
import { patch } from '../../snab.js';
import { isDone, onProgress, syncProgress } from './progress.js';

/** A message for the reader: right, wrong, or neutral. */
export interface Feedback {
  kind: 'ok' | 'bad' | 'info';
  lines: string[];
}

/** The server's SAN in the reader's letters. */
export function san(s: string): string {
  return localiseSan(s, currentLetters());
}

/** A sentence for a failed request. */
export function errorText(e: unknown): string {
  if (e instanceof ApiError) {
    if (e.status === 0) return t('ex.error.network');
    if (e.status === 429) return t('ex.error.busy');
    return t('ex.error.server', { message: e.message });
  }
  return t('ex.error.server', { message: String(e) });
}

/** An exercise mounted in one element; `dispose()` removes it and everything it set up. */
export abstract class Exercise {
  feedback: Feedback | null = null;
  busy = false;
  protected alive = true;
  private vnode: VNode | Element;
  private readonly cleanups: Array<() => void> = [];

  constructor(
    root: HTMLElement,
    /** The progress key whose done mark the heading shows. */
    readonly progressKey: string,
  ) {
    const holder = document.createElement('div');
    root.replaceChildren(holder);
    this.vnode = holder;
    this.cleanups.push(onProgress(() => this.redraw()));
    void syncProgress();
  }

  /** The exercise's content (inside its frame). */
  protected abstract render(): VNode;

  /** The title shown above the exercise. */
  protected abstract heading(): string;

  /** Re-renders from the current state. */
  redraw(): void {
    if (!this.alive) return;
    this.vnode = patch(this.vnode, this.frame());
  }

  /** Removes the exercise (its board is destroyed by its hook). */
  dispose(): void {
    if (!this.alive) return;
    this.vnode = patch(this.vnode, h('div'));
    this.alive = false;
    for (const f of this.cleanups.splice(0)) f();
  }

  protected say(kind: Feedback['kind'], ...lines: string[]): void {
    this.feedback = { kind, lines };
  }

  protected fail(e: unknown): void {
    this.busy = false;
    this.say('bad', errorText(e));
    this.redraw();
  }

  private frame(): VNode {
    const done = isDone(this.progressKey);
    return h('div.ex', { class: { done } }, [
      h('div.ex-head', [
        h('h2.ex-title', this.heading()),
        done ? h('span.ex-done', { attrs: { 'data-testid': 'exercise-done' } }, t('ex.done')) : null,
      ]),
      this.render(),
    ]);
  }
}

/** The feedback line (always present, so screen readers hear changes). */
export function feedbackView(fb: Feedback | null, busy = false): VNode {
  return h(
    'div.ex-feedback',
    {
      class: { ok: fb?.kind === 'ok', bad: fb?.kind === 'bad' },
      attrs: { 'data-testid': 'exercise-feedback', role: 'status', 'aria-live': 'polite', 'aria-busy': busy ? 'true' : 'false' },
    },
    busy ? [h('p', t('ex.wait'))] : (fb?.lines ?? []).map((l) => h('p', l)),
  );
}

/** A button; `testid` names it for tests. */
export function button(label: string, onClick: () => void, opts: { testid?: string; primary?: boolean; disabled?: boolean; pressed?: boolean; title?: string } = {}): VNode {
  return h(
    'button',
    {
      class: { primary: !!opts.primary, pressed: !!opts.pressed },
      attrs: {
        type: 'button',
        ...(opts.testid ? { 'data-testid': opts.testid } : {}),
        ...(opts.pressed !== undefined ? { 'aria-pressed': String(opts.pressed) } : {}),
        ...(opts.title ? { title: opts.title } : {}),
      },
      props: { disabled: !!opts.disabled },
      on: { click: onClick },
    },
    label,
  );
}

const STATUS: Record<string, Key> = {
  ongoing: 'ex.status.ongoing',
  checkmate: 'ex.status.checkmate',
  stalemate: 'ex.status.stalemate',
  insufficient_material: 'ex.status.insufficient_material',
  fifty_moves: 'ex.status.fifty_moves',
};

/** A position status from the server in words (an unknown one as the server wrote it). */
export function statusText(status: string): string {
  const key = STATUS[status];
  return key ? t(key) : status;
}

const ROLES: Record<string, Key> = {
  king: 'ex.role.king',
  queen: 'ex.role.queen',
  rook: 'ex.role.rook',
  bishop: 'ex.role.bishop',
  knight: 'ex.role.knight',
  pawn: 'ex.role.pawn',
};

/** A piece kind from the server ("queen") in words. */
export function roleText(role: string): string {
  const key = ROLES[role];
  return key ? t(key) : role;
}
