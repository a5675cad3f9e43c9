//! The header's bell: the account's notifications (a challenge received,
//! a message received, a tournament starting soon, a Swiss round paired, a
//! followed player's tournament win, rating points given back, a report
//! handled), the count of unseen ones, and the site socket
//! (`/api/socket/site`) that pushes each new one at once — reconnected
//! with backoff while someone is logged in. Opening the list marks
//! everything seen.
import { call } from '../api.js';
import { backoff } from '../socket.js';

/** A notification as the server sends it. */
export type Note = { id: string; seen: boolean; created_at: number } & (
  | { kind: 'challenge'; challenge: string; from: string }
  | { kind: 'msg'; from: string; text: string }
  | { kind: 'refund'; speed: string; points: number }
  | { kind: 'report'; about: string | null }
  | { kind: 'tournament_soon'; tournament: string; name: string; swiss: boolean; starts_at: number }
  | { kind: 'swiss_round'; tournament: string; name: string; round: number; opponent: string | null }
  | { kind: 'tournament_win'; tournament: string; name: string; swiss: boolean; winner: string }
);

/** GET /api/notifications and POST /api/notifications/seen. */
export interface Notes {
  unseen: number;
  notes: Note[];
}

/** What the site socket says. */
export type SiteMessage = { t: 'hello'; unseen: number } | { t: 'notify'; note: Note; unseen: number };

/** The site socket's URL at `loc`. */
export function siteSocketUrl(loc: Location = location): string {
  return `${loc.protocol === 'https:' ? 'wss:' : 'ws:'}//${loc.host}/api/socket/site`;
}

/** Where a notification leads: the sender's conversation, the challenger's profile, or (`me`) one's own profile. */
export function notePath(n: Note, me: string): string {
  switch (n.kind) {
    case 'msg':
      return `/inbox/${encodeURIComponent(n.from)}`;
    case 'challenge':
      return `/@/${encodeURIComponent(n.from)}`;
    case 'refund':
      return `/@/${encodeURIComponent(me)}`;
    case 'report':
      return n.about ? `/@/${encodeURIComponent(n.about)}` : '/';
    case 'tournament_soon':
    case 'tournament_win':
      return `/${n.swiss ? 'swiss' : 'tournament'}/${encodeURIComponent(n.tournament)}`;
    case 'swiss_round':
      return `/swiss/${encodeURIComponent(n.tournament)}`;
  }
}

/** What the bell needs from the app shell. */
export interface BellHost {
  redraw(): void;
  /** A notification arrived (to refresh what it concerns: challenges, the unread count). */
  heard(note: Note): void;
  /** The socket (re)connected: what arrived while it was not there was not heard one by one. */
  caughtUp(): void;
}

/** State of the bell. */
export class BellCtrl {
  unseen = 0;
  /** The list, once opened (newest first). */
  notes: Note[] | null = null;
  open = false;
  private ws: WebSocket | null = null;
  private on = false;
  private attempts = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly host: BellHost) {}

  /** Follows the account: holds the site socket while someone is logged in. */
  follow(loggedIn: boolean): void {
    if (loggedIn === this.on) return;
    this.on = loggedIn;
    this.unseen = 0;
    this.notes = null;
    this.open = false;
    if (loggedIn) this.connect();
    else this.disconnect();
  }

  private connect(): void {
    const ws = new WebSocket(siteSocketUrl());
    this.ws = ws;
    ws.onopen = () => {
      this.attempts = 0;
    };
    ws.onmessage = (e: MessageEvent) => {
      let msg: SiteMessage;
      try {
        msg = JSON.parse(String(e.data)) as SiteMessage;
      } catch {
        return;
      }
      this.unseen = msg.unseen;
      if (msg.t === 'notify') {
        if (this.notes) this.notes = [msg.note, ...this.notes];
        this.host.heard(msg.note);
      } else {
        this.host.caughtUp();
      }
      this.host.redraw();
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.on) this.timer = setTimeout(() => this.connect(), backoff(this.attempts++));
    };
  }

  private disconnect(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const ws = this.ws;
    this.ws = null;
    ws?.close();
  }

  /** Opens or closes the list; opening loads it and marks everything seen. */
  toggle(): void {
    this.open = !this.open;
    this.host.redraw();
    if (!this.open) return;
    call<Notes>('POST', '/api/notifications/seen')
      .then((n) => {
        this.notes = n.notes;
        this.unseen = n.unseen;
      })
      .catch(() => {
        this.notes = this.notes ?? [];
      })
      .finally(() => this.host.redraw());
  }

  /** Closes the list. */
  close(): void {
    if (!this.open) return;
    this.open = false;
    this.host.redraw();
  }
}
