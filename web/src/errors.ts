//! Server errors as sentences for the game and table pages.
import { ApiError } from './api.js';
import { has, t } from './i18n.js';

/** The message for a server error code. */
export function errorText(code: string): string {
  const key = `error.${code}`;
  return has(key) ? t(key) : t(code === 'disconnected' ? 'error.network' : 'error.generic');
}

/** The message for an error of the tables API. */
export function tableErrorText(e: unknown): string {
  return errorText(e instanceof ApiError ? e.code : 'generic');
}
