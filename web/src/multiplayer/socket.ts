//! The lobby socket: the open public tables and waiting seeks, a full list on
//! every (re)connection then additions and removals; reconnects with the game socket's backoff.
import type { LobbyMessage } from '../api.js';
import { backoff, type Connect } from '../socket.js';

/** Keeps a connection to the lobby until `close()`, handing every message to `onMessage`. */
export class LobbySocket {
  private ws: WebSocket | null = null;
  private attempts = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly onMessage: (msg: LobbyMessage) => void,
    private readonly onConnection: (open: boolean) => void,
    private readonly connect: Connect = (u) => new WebSocket(u),
  ) {
    this.open();
  }

  /** Closes for good (leaving the page). */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.ws?.close();
  }

  private open(): void {
    const ws = this.connect(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.attempts = 0;
      this.onConnection(true);
    };
    ws.onmessage = (e: MessageEvent) => {
      let msg: LobbyMessage;
      try {
        msg = JSON.parse(String(e.data)) as LobbyMessage;
      } catch {
        return;
      }
      if (msg && ['lobby', 'add', 'remove', 'seek_add', 'seek_remove'].includes(msg.t)) this.onMessage(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      this.onConnection(false);
      this.timer = setTimeout(() => this.open(), backoff(this.attempts++));
    };
  }
}
