//! Pure facts about clubs that the clubs' controllers and views share: who
//! leads, and how a refused action is worded.
import { ApiError } from '../api.js';
import { t } from '../i18n.js';
import type { Club } from './api.js';

/** A user's id in the team API: the username in lower case. */
export function userId(username: string): string {
  return username.toLowerCase();
}

/** Does `username` lead `club`? */
export function leads(club: Club, username: string | null | undefined): boolean {
  if (!username) return false;
  const id = userId(username);
  return club.leaders.some((l) => l.id === id);
}

/** The sentence shown for a failed club call: the server's own words (lichess's `{"error":"…"}`), or ours when it could not be reached or said nothing. */
export function clubErrorText(e: unknown): string {
  if (!(e instanceof ApiError)) return t('error.generic');
  if (e.code === 'network') return t('error.network');
  if (e.status === 401) return t('error.not_logged_in');
  const text = e.status >= 500 ? '' : e.message.trim();
  return text === '' ? t('error.generic') : text.charAt(0).toUpperCase() + text.slice(1);
}
