//! The inbox's calls: lila's `GET /inbox[/{username}]` as JSON (the
//! account, its conversations and one conversation), `POST
//! /inbox/{username}` (a message) and our unread count.
import { ApiError, call, failure, send } from '../api.js';
import { type Key, t } from '../i18n.js';

/** The longest message, in characters (the server's limit). */
export const MAX_MSG_CHARS = 8000;

/** A player as the inbox shows one. */
export interface Contact {
  name: string;
  id: string;
  online: boolean;
}

/** A conversation in the list. */
export interface Thread {
  user: Contact;
  lastMsg: { text: string; user: string; date: number; read: boolean };
}

/** One message. */
export interface Msg {
  text: string;
  /** The author's id (the name in lower case). */
  user: string;
  date: number;
}

/** Why the reader may not write: they block me, I block them, or my account is new. */
export type Refusal = 'blocked' | 'blocking' | 'new_account';

/** A conversation. */
export interface Convo {
  user: Contact;
  msgs: Msg[];
  postable: boolean;
  refusal?: Refusal;
}

/** GET /inbox[/{username}] as JSON. */
export interface InboxData {
  me: { name: string; id: string };
  contacts: Thread[];
  convo?: Convo;
}

/** The inbox, with the conversation with `username` when given (which it marks read). */
export async function getInbox(username: string | null): Promise<InboxData> {
  const path = username === null ? '/inbox' : `/inbox/${encodeURIComponent(username)}`;
  let res: Response;
  try {
    res = await fetch(path, { credentials: 'same-origin', headers: { accept: 'application/json' } });
  } catch (e) {
    throw new ApiError(0, 'network', String(e));
  }
  let json: unknown = null;
  try {
    json = await res.json();
  } catch {
    // The status says enough.
  }
  const a = { status: res.status, ok: res.ok, statusText: res.statusText, headers: res.headers, json };
  if (!a.ok) throw failure(a);
  return json as InboxData;
}

/** Sends a message to `username`. */
export async function sendMsg(username: string, text: string): Promise<void> {
  const a = await send('POST', `/inbox/${encodeURIComponent(username)}`, { text });
  if (!a.ok) throw failure(a);
}

/** How many conversations have a message the account has not read. */
export async function unreadCount(): Promise<number> {
  return (await call<{ unread: number }>('GET', '/api/inbox/unread')).unread;
}

/** The sentence of a refusal. */
export function refusalText(r: Refusal): string {
  const keys: Record<Refusal, Key> = {
    blocked: 'inbox.refusal.blocked',
    blocking: 'inbox.refusal.blocking',
    new_account: 'inbox.refusal.new_account',
  };
  return t(keys[r] ?? 'inbox.refusal.blocked');
}

/** The sentence for a message that could not be sent. */
export function sendErrorText(e: unknown): string {
  if (!(e instanceof ApiError)) return t('error.generic');
  if (e.code === 'network') return t('error.network');
  if (e.status === 401) return t('error.not_logged_in');
  if (e.status === 429) return t('inbox.error.tooMany');
  if (e.status === 403) return t('inbox.error.refused');
  if (e.status === 404) return t('inbox.error.noUser');
  if (e.status === 400) return t('inbox.error.invalid');
  return t('error.generic');
}
