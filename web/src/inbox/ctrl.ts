//! The inbox page's controller (`/inbox`, `/inbox/{username}`): the
//! account's conversations, the one with `username` when given, and the
//! form that writes to them.
import { t } from '../i18n.js';
import type { Controller, Ctx } from '../page.js';
import { getInbox, type InboxData, MAX_MSG_CHARS, sendErrorText, sendMsg } from './api.js';

/** State of the inbox page. */
export class InboxCtrl implements Controller {
  data: InboxData | null = null;
  /** Loading failed: 'missing' (no such player), 'self' or 'network'. */
  failed: 'missing' | 'self' | 'network' | null = null;
  text = '';
  busy = false;
  error: string | null = null;
  private alive = true;

  constructor(
    readonly ctx: Ctx,
    readonly username: string | null,
    /** Called once a conversation was read (the header's unread count changes). */
    private readonly onRead: () => void,
  ) {
    if (ctx.account()) this.load();
  }

  private load(): void {
    getInbox(this.username)
      .then((d) => {
        this.data = d;
        this.failed = null;
        this.onRead();
      })
      .catch((e: unknown) => {
        const status = (e as { status?: number }).status;
        this.failed = status === 404 ? 'missing' : status === 400 ? 'self' : 'network';
      })
      .finally(() => {
        if (this.alive) this.ctx.redraw();
      });
  }

  /** Sends the text typed, then shows the conversation again. */
  send(): void {
    const text = this.text.trim();
    if (this.busy || this.username === null) return;
    if (text === '') {
      this.error = t('inbox.error.empty');
      this.ctx.redraw();
      return;
    }
    if ([...text].length > MAX_MSG_CHARS) {
      this.error = t('inbox.error.tooLong', { n: MAX_MSG_CHARS });
      this.ctx.redraw();
      return;
    }
    this.busy = true;
    this.error = null;
    this.ctx.redraw();
    sendMsg(this.username, text)
      .then(() => {
        this.text = '';
        this.load();
      })
      .catch((e: unknown) => {
        this.error = sendErrorText(e);
      })
      .finally(() => {
        this.busy = false;
        if (this.alive) this.ctx.redraw();
      });
  }

  title(): string {
    const who = this.data?.convo?.user.name ?? this.username;
    return `${who ? `${who} · ` : ''}${t('inbox.title')} · ${t('site.name')}`;
  }

  destroy(): void {
    this.alive = false;
  }
}
