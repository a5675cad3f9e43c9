//! Whether the tab lost the focus since the player's last move: the
//! `blur` a table move carries (fair play reads it, as lichess does).
//! The window's `blur`, or the page turning hidden, counts; reading the
//! mark for a move clears it.

/** What the watch listens to (the window and the document in the app). */
export interface FocusTargets {
  window: EventTarget;
  document: EventTarget & { visibilityState: string };
}

/** The lost-focus mark between two moves. */
export class FocusWatch {
  private lost = false;
  private readonly off: Array<() => void> = [];

  constructor(targets: FocusTargets) {
    const on = (target: EventTarget, type: string, f: () => void) => {
      target.addEventListener(type, f);
      this.off.push(() => target.removeEventListener(type, f));
    };
    on(targets.window, 'blur', () => {
      this.lost = true;
    });
    on(targets.document, 'visibilitychange', () => {
      if (targets.document.visibilityState === 'hidden') this.lost = true;
    });
  }

  /** Did the tab lose the focus since the last call? Clears the mark. */
  take(): boolean {
    const lost = this.lost;
    this.lost = false;
    return lost;
  }

  /** Stops listening. */
  destroy(): void {
    for (const f of this.off.splice(0)) f();
  }
}
