//! A page's live feed: a websocket whose every message is a whole snapshot
//! of what the page shows (a tournament's socket, docs/protocol.md). It
//! reconnects with exponential backoff while the page is open; a page that
//! also polls asks `live()` to poll slowly while the feed is up.

/** First wait before reconnecting, doubled after each failure. */
const RETRY_MIN_MS = 1000;
/** Longest wait before reconnecting. */
const RETRY_MAX_MS = 30_000;

/** A feed held open while a page is. */
export class Feed<T> {
  private ws: WebSocket | null = null;
  private retryMs = RETRY_MIN_MS;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  private open = false;

  /** Opens `path`; `onSnapshot` gets each message parsed as JSON. */
  constructor(
    private readonly path: string,
    private readonly onSnapshot: (snapshot: T) => void,
  ) {
    this.connect();
  }

  /** Whether the feed is connected now. */
  live(): boolean {
    return this.open;
  }

  /** Closes the feed for good. */
  close(): void {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.ws?.close();
    this.ws = null;
  }

  private connect(): void {
    if (this.closed) return;
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${scheme}//${location.host}${this.path}`);
    this.ws = ws;
    ws.onopen = () => {
      this.open = true;
      this.retryMs = RETRY_MIN_MS;
    };
    ws.onmessage = (ev: MessageEvent) => {
      if (typeof ev.data !== 'string') return;
      let snapshot: T;
      try {
        snapshot = JSON.parse(ev.data) as T;
      } catch {
        return;
      }
      this.onSnapshot(snapshot);
    };
    ws.onclose = () => {
      this.open = false;
      if (this.closed || this.ws !== ws) return;
      this.timer = setTimeout(() => this.connect(), this.retryMs);
      this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs * 2);
    };
  }
}
