//! The game socket (docs/protocol.md): versioned events applied in order, a
//! resync on gaps, requests acknowledged by id, and reconnection with
//! exponential backoff that resumes with `?v=`.
import type { ClaimReason, GameState, MoveRecord } from './api.js';

/** A change the server reports. */
export interface GameEvent {
  kind: 'move' | 'undo' | 'end' | 'thinking' | string;
  move: MoveRecord | null;
}

/** A chat room of a table game. */
export type ChatRoom = 'player' | 'spectator';

/** A line of game chat: plain text, never markup. */
export interface ChatLine {
  room: ChatRoom;
  user: string;
  text: string;
}

/** Messages the server sends. */
export type ServerMessage =
  | { t: 'full'; v: number; game: GameState }
  | { t: 'event'; v: number; kind: string; move: MoveRecord | null; game: GameState }
  | { t: 'ack'; id: number; v: number }
  | { t: 'error'; id?: number | null; code: string; message: string }
  | { t: 'pong' }
  | ({ t: 'chat' } & ChatLine)
  | { t: 'chat_history'; room: ChatRoom; lines: ChatLine[] };

/** Requests the client makes (ids are added by the socket). */
export type Request =
  | { t: 'move'; uci: string; draw_offer?: boolean; blur?: boolean; lag_ms?: number }
  | { t: 'undo' }
  | { t: 'resign' }
  | { t: 'claim'; reason: ClaimReason; uci?: string }
  | { t: 'accept_draw' }
  | { t: 'decline_draw' }
  | { t: 'takeback'; yes: boolean }
  | { t: 'abort' }
  | { t: 'claim_away'; outcome: 'win' | 'draw' }
  | { t: 'rematch' }
  | { t: 'chat'; room: ChatRoom; text: string };

/** Close code the server uses for a game that does not exist (docs/protocol.md). */
export const CLOSE_NO_SUCH_GAME = 4404;

/** A refusal from the server, or `disconnected` when the socket closed before an answer. */
export class RequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** What the socket reports to its owner. */
export interface SocketListener {
  /** A new state: from `full` (event null) or from an in-order event. */
  state(game: GameState, event: GameEvent | null): void;
  /** Connection status changed. */
  connection(open: boolean): void;
  /** An error not tied to a request of ours. */
  error?(code: string, message: string): void;
  /** The game no longer exists: the socket stops reconnecting. */
  gone?(): void;
  /** The chat room the viewer reads, with its last lines (after each connection). */
  chatHistory?(room: ChatRoom, lines: ChatLine[]): void;
  /** A new line in that room. */
  chat?(line: ChatLine): void;
}

/** Something that can open a websocket; swapped in tests. */
export type Connect = (url: string) => WebSocket;

/** Decides what to do with an incoming versioned message given our version: the pure core of the client rule. */
export function versionAction(mine: number, incoming: number): 'apply' | 'ignore' | 'resync' {
  if (incoming <= mine) return 'ignore';
  if (incoming === mine + 1) return 'apply';
  return 'resync';
}

/**
 * An event's state completed with what the client already knows: events are
 * the same text for every socket, so they carry neither the viewer (`you`)
 * nor the move list — the list is the known one cut to the event's ply, plus
 * the event's move.
 */
export function withKnown(game: GameState, move: MoveRecord | null, known: GameState | null): GameState {
  const you = game.you ?? known?.you ?? null;
  const before = known?.moves ?? [];
  const moves = game.moves ?? (move ? [...before.slice(0, game.ply - 1), move] : before.slice(0, game.ply));
  const merged: GameState = { ...game, you, moves };
  if (merged.away_claimable_by !== undefined) merged.can_claim_away = you !== null && merged.away_claimable_by === you;
  return merged;
}

/** Delay before reconnection attempt `n` (0-based): 0.5 s doubling to 10 s, with up to 25 % jitter. */
export function backoff(n: number, random: () => number = Math.random): number {
  const base = Math.min(10_000, 500 * 2 ** n);
  return Math.round(base * (1 + random() * 0.25));
}

/** `WebSocket.CONNECTING` and `OPEN`, spelt out so the module also loads where WebSocket is not global. */
const CONNECTING = 0;
const OPEN = 1;

interface Pending {
  resolve: (v: number) => void;
  reject: (e: RequestError) => void;
}

/** One live connection to a game, kept open until `close()`. */
export class GameSocket {
  private ws: WebSocket | null = null;
  private nextId = 1;
  private attempts = 0;
  private pending = new Map<number, Pending>();
  /** Requests made while the socket was still connecting: sent once it opens, failed if it closes. */
  private waiting: Array<{ send: () => void; fail: () => void }> = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private pinger: ReturnType<typeof setInterval> | null = null;
  private closed = false;
  private syncing = false;
  /** When the unanswered ping was sent (performance.now()). */
  private pingAt: number | null = null;
  private lag: number | null = null;
  /** The last state applied: events leave out what it already has. */
  private last: GameState | null = null;

  constructor(
    private readonly url: (v: number) => string,
    /** Last version applied. */
    public v: number,
    private readonly listener: SocketListener,
    private readonly connect: Connect = (u) => new WebSocket(u),
  ) {
    this.open();
  }

  /** Half the last ping's round trip in whole milliseconds (the one-way lag), once measured. */
  get lagMs(): number | null {
    return this.lag;
  }

  /** Tells the socket the state the page started from (fetched over HTTP). */
  known(game: GameState): void {
    this.last = game;
  }

  /** Is the socket open now? */
  get isOpen(): boolean {
    return this.ws?.readyState === OPEN;
  }

  /** Sends a request; resolves with the version at which it was committed. */
  request(req: Request): Promise<number> {
    const ws = this.ws;
    if (ws && ws.readyState === CONNECTING) {
      return new Promise<number>((resolve, reject) => {
        this.waiting.push({
          send: () => this.request(req).then(resolve, reject),
          fail: () => reject(new RequestError('disconnected', 'connection closed')),
        });
      });
    }
    if (!ws || ws.readyState !== OPEN) {
      return Promise.reject(new RequestError('disconnected', 'not connected'));
    }
    const id = this.nextId++;
    return new Promise<number>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      ws.send(JSON.stringify({ ...req, id }));
    });
  }

  /** Drops the connection now (the browser went offline); it is retried with backoff. */
  drop(): void {
    this.ws?.close();
  }

  /** Reconnects at once if not connected (the browser is back online). */
  retryNow(): void {
    if (this.closed || this.ws) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.attempts = 0;
    this.open();
  }

  /** Closes for good (leaving the page). */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.pinger) clearInterval(this.pinger);
    this.ws?.close();
    this.failPending();
  }

  private open(): void {
    const ws = this.connect(this.url(this.v));
    this.ws = ws;
    ws.onopen = () => {
      this.attempts = 0;
      this.syncing = false;
      this.listener.connection(true);
      for (const w of this.waiting.splice(0)) w.send();
      if (this.pinger) clearInterval(this.pinger);
      this.pinger = setInterval(() => {
        this.pingAt = performance.now();
        this.sendRaw({ t: 'ping' });
      }, 25_000);
    };
    ws.onmessage = (e: MessageEvent) => {
      let msg: ServerMessage;
      try {
        msg = JSON.parse(String(e.data)) as ServerMessage;
      } catch {
        return;
      }
      this.handle(msg);
    };
    ws.onclose = (e?: CloseEvent) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.pinger) clearInterval(this.pinger);
      this.failPending();
      if (this.closed) return;
      if (e?.code === CLOSE_NO_SUCH_GAME) {
        this.closed = true;
        this.listener.gone?.();
        return;
      }
      this.listener.connection(false);
      this.timer = setTimeout(() => this.open(), backoff(this.attempts++));
    };
  }

  private readonly handlers: { [T in ServerMessage['t']]: (m: Extract<ServerMessage, { t: T }>) => void } = {
    full: (m) => {
      this.v = m.v;
      this.syncing = false;
      this.last = { ...m.game, moves: m.game.moves ?? [] };
      this.listener.state(this.last, null);
    },
    event: (m) => {
      switch (versionAction(this.v, m.v)) {
        case 'apply': {
          this.v = m.v;
          const game = withKnown(m.game, m.move, this.last);
          this.last = game;
          this.listener.state(game, { kind: m.kind, move: m.move });
          break;
        }
        case 'resync':
          if (!this.syncing) {
            this.syncing = true;
            this.sendRaw({ t: 'sync', v: this.v });
          }
          break;
        case 'ignore':
          break;
      }
    },
    ack: (m) => {
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      p?.resolve(m.v);
    },
    error: (m) => {
      const p = typeof m.id === 'number' ? this.pending.get(m.id) : undefined;
      if (p && typeof m.id === 'number') {
        this.pending.delete(m.id);
        p.reject(new RequestError(m.code, m.message));
      } else {
        this.listener.error?.(m.code, m.message);
      }
    },
    chat: (m) => {
      this.listener.chat?.({ room: m.room, user: m.user, text: m.text });
    },
    chat_history: (m) => {
      this.listener.chatHistory?.(m.room, m.lines);
    },
    pong: () => {
      if (this.pingAt !== null) this.lag = Math.round((performance.now() - this.pingAt) / 2);
      this.pingAt = null;
    },
  };

  private handle(msg: ServerMessage): void {
    const f = this.handlers[msg.t] as ((m: ServerMessage) => void) | undefined;
    f?.(msg);
  }

  private sendRaw(msg: unknown): void {
    if (this.ws?.readyState === OPEN) this.ws.send(JSON.stringify(msg));
  }

  private failPending(): void {
    for (const p of this.pending.values()) p.reject(new RequestError('disconnected', 'connection closed'));
    this.pending.clear();
    for (const w of this.waiting.splice(0)) w.fail();
  }
}
