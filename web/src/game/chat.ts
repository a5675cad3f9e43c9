//! Game chat's state on a table game page: the room the viewer reads
//! (players: the player room; everyone else: the spectator room), its last
//! lines, the line being typed, and the "Hide chat" choice remembered in
//! localStorage. Lines are kept as plain strings; the view shows them as
//! text nodes, never as markup.
import { errorText } from '../errors.js';
import { t } from '../i18n.js';
import { type ChatLine, type ChatRoom, RequestError } from '../socket.js';

/** The longest line, in characters (the server's limit too). */
export const CHAT_MAX = 140;
/** Lines kept on the page. */
const KEPT = 200;
const HIDDEN_KEY = 'plyyard.chat.hidden';

/** Is chat hidden by the viewer's choice (default shown)? */
export function chatHidden(): boolean {
  try {
    return localStorage.getItem(HIDDEN_KEY) === 'yes';
  } catch {
    return false;
  }
}

function rememberHidden(hidden: boolean): void {
  try {
    if (hidden) localStorage.setItem(HIDDEN_KEY, 'yes');
    else localStorage.removeItem(HIDDEN_KEY);
  } catch {
    // Not remembered when storage is unavailable.
  }
}

/** The words for a refused line. */
function chatErrorText(code: string): string {
  switch (code) {
    case 'rate_limited':
      return t('chat.error.slowDown');
    case 'bad_request':
      return t('chat.error.text');
    case 'not_logged_in':
      return t('chat.error.login');
    default:
      return errorText(code);
  }
}

/** The chat panel's state and actions. */
export class ChatCtrl {
  /** The room the viewer reads; null until the server says (no chat at computer games). */
  room: ChatRoom | null = null;
  lines: ChatLine[] = [];
  input = '';
  error = '';
  sending = false;
  hidden = chatHidden();

  constructor(
    private readonly send: (room: ChatRoom, text: string) => Promise<number>,
    private readonly redraw: () => void,
  ) {}

  /** The room's history, after each (re)connection. */
  history(room: ChatRoom, lines: ChatLine[]): void {
    this.room = room;
    this.lines = lines.slice(-KEPT);
    this.redraw();
  }

  /** A new line in the room. */
  heard(line: ChatLine): void {
    if (line.room !== this.room) return;
    this.lines = [...this.lines, line].slice(-KEPT);
    this.redraw();
  }

  setInput(text: string): void {
    this.input = text;
  }

  /** Sends the typed line; it shows when the server echoes it. */
  submit(): void {
    const text = this.input.trim();
    if (!this.room || this.sending || text === '') return;
    this.sending = true;
    this.error = '';
    this.send(this.room, text)
      .then(() => {
        this.input = '';
      })
      .catch((e: unknown) => {
        this.error = chatErrorText(e instanceof RequestError ? e.code : 'generic');
      })
      .finally(() => {
        this.sending = false;
        this.redraw();
      });
    this.redraw();
  }

  /** Hides or shows the chat, and remembers it. */
  toggle(): void {
    this.hidden = !this.hidden;
    rememberHidden(this.hidden);
    this.redraw();
  }
}
