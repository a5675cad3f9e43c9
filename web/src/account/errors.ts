//! The wording of the account API's errors (sign-up, log-in, account pages).
import { ApiError } from '../api.js';
import { has, t, tp } from '../i18n.js';

/** The translated message for an account API error (with its reason code or Retry-After). */
export function accountErrorText(e: unknown): string {
  if (!(e instanceof ApiError)) return t('error.generic');
  if (e.code === 'network') return t('error.network');
  if (e.code === 'rate_limited') return e.retryAfter !== null ? tp('account.error.rate_limited', Math.max(1, Math.ceil(e.retryAfter))) : t('error.rate_limited');
  const withReason = `account.error.${e.code}.${e.reason ?? ''}`;
  if (e.reason && has(withReason)) return t(withReason);
  const plain = `account.error.${e.code}`;
  if (has(plain)) return t(plain);
  // The Lichess-compatible API's errors are sentences of their own (in English).
  return e.code === 'lichess' ? `${t('error.generic')} (${e.message})` : t('error.generic');
}
