//! Links that open a player's report form on their profile, filled in
//! with a reason and the context (a game, a chat line): the report buttons
//! of the game page and of every chat (games, clubs, Arenas, Swiss).
import { h, type VNode } from 'snabbdom';
import { t } from '../i18n.js';
import { REPORT_REASONS, type ReportReason } from './api.js';

/** The longest text a report takes (the server's limit). */
export const REPORT_TEXT_MAX = 3000;

/** `/@/{username}` with its report form open, `reason` chosen and `text` written. */
export function reportHref(username: string, reason: ReportReason, text: string): string {
  const q = new URLSearchParams({ report: reason, text: text.slice(0, REPORT_TEXT_MAX) });
  return `/@/${encodeURIComponent(username)}?${q.toString()}`;
}

/** The reason and text a profile's query asks the report form to open with, if any. */
export function reportWanted(search: string): { reason: ReportReason; text: string } | null {
  const q = new URLSearchParams(search);
  const reason = q.get('report');
  const known = REPORT_REASONS.find((r) => r === reason);
  return known ? { reason: known, text: (q.get('text') ?? '').slice(0, REPORT_TEXT_MAX) } : null;
}

/**
 * The report button of a chat line by `user` saying `text` on the page at
 * `path`, for a viewer logged in as `me`: none on one's own lines or for a
 * visitor.
 */
export function chatLineReport(user: string, text: string, path: string, me: string | null, testid: string): VNode | null {
  if (!me || user.toLowerCase() === me.toLowerCase()) return null;
  const href = reportHref(user, 'abuse', t('report.chatText', { url: `${location.origin}${path}`, text }));
  return h('a.chat-report.muted.small', { attrs: { href, 'data-testid': testid, title: t('report.chatLine', { name: user }) } }, ` ${t('report.short')}`);
}
