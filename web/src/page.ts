//! What every page gives the app shell, and what the shell gives every page.
import type { VNode } from 'snabbdom';
import type { Account } from './api.js';

/** A page: a controller whose `view()` is a pure function of its state. */
export interface Page {
  /** The page's content (under `<main>`). */
  view(): VNode;
  /** The document title. */
  title(): string;
  /** Removes everything the page set up outside its own DOM: sockets, listeners, timers. */
  destroy(): void;
}

/** The app shell as seen by a page. */
export interface Ctx {
  /** Re-renders the whole app from the current state. */
  redraw(): void;
  /** Opens `path` in the app (history entry, old page destroyed). */
  navigate(path: string): void;
  /** The logged-in account, or null. */
  account(): Account | null;
  /** Records a log-in or log-out (the header follows). */
  setAccount(account: Account | null): void;
}
