//! What every page gives the app shell, and what the shell gives every page.
//! A page is a controller (state and actions, no rendering) composed with a
//! view (a pure function of the controller): the view imports only the
//! controller's type, and the controller never imports its view.
import type { VNode } from 'snabbdom';
import type { Account } from './api.js';

/** A page as the app shell sees it. */
export interface Page {
  /** The page's content (under `<main>`). */
  view(): VNode;
  /** The document title. */
  title(): string;
  /** Removes everything the page set up outside its own DOM: sockets, listeners, timers. */
  destroy(): void;
}

/** A page's controller: its state and actions, the document title and the teardown. */
export interface Controller {
  /** The document title. */
  title(): string;
  /** Removes everything the page set up outside its own DOM: sockets, listeners, timers. */
  destroy(): void;
}

/** The page made of controller `ctrl` and `view`, which renders it. */
export function compose<C extends Controller>(ctrl: C, view: (ctrl: C) => VNode): Page {
  return {
    view: () => view(ctrl),
    title: () => ctrl.title(),
    destroy: () => ctrl.destroy(),
  };
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
