//! What the moderation pages share: loading a page's data with the
//! "moderators only" and network failures told apart, and the text of a
//! refused request.
import { ApiError } from '../api.js';
import { t } from '../i18n.js';

/** Why a moderation page shows no data: not allowed (403) or no answer. */
export type LoadError = 'forbidden' | 'network';

/** The load error of a failed request. */
export function loadError(e: unknown): LoadError {
  return e instanceof ApiError && (e.status === 403 || e.status === 401) ? 'forbidden' : 'network';
}

/** The text shown for a refused action: the server's own message for a 4xx, else a network error. */
export function actionError(e: unknown): string {
  if (e instanceof ApiError && e.status >= 400 && e.status < 500) return e.message;
  return t('error.network');
}

/** `iso` as a short local date and time. */
export function when(iso: string, lang: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}
