//! The pure rules of challenges on the client: the challenge form's
//! settings turned into the Lichess-API request (clock in seconds), the
//! decline reasons offered and lichess's reason keys as our sentences, why
//! a challenge stopped waiting, a challenge's terms in words, where an
//! accepted challenge's game is played, and server errors as sentences.
import { ApiError, type Challenge, type ChallengeRequest, type Color, type Variant } from './api.js';
import { type Key, t } from './i18n.js';
import { parseTimeControl, type TimeControl } from './tables.js';

/** What the challenge form holds (the clock as typed). */
export interface ChallengeSettings {
  minutes: string;
  increment: string;
  variant: Variant;
  rated: boolean;
  color: Color | 'random';
}

/** The form's first settings: 5+3, standard, casual, random colour. */
export function defaultChallenge(): ChallengeSettings {
  return { minutes: '5', increment: '3', variant: 'standard', rated: false, color: 'random' };
}

/** The request for `s`, or null when its clock is not one played here (½–180 min, 0–180 s). */
export function challengeRequest(s: ChallengeSettings): ChallengeRequest | null {
  const tc: TimeControl | null = parseTimeControl(s.minutes, s.increment);
  if (!tc) return null;
  return { 'clock.limit': Math.round(tc.minutes * 60), 'clock.increment': tc.increment, rated: s.rated, color: s.color, variant: s.variant };
}

/** The decline reasons offered to the challenged player (lichess's keys). */
export const DECLINE_CHOICES = ['generic', 'later', 'tooFast', 'tooSlow', 'rated', 'casual'] as const;
export type DeclineChoice = (typeof DECLINE_CHOICES)[number];

/** Our sentence for each of lichess's decline reason keys. */
const REASONS: Record<string, Key> = {
  generic: 'challenge.reason.generic',
  later: 'challenge.reason.later',
  tooFast: 'challenge.reason.tooFast',
  tooSlow: 'challenge.reason.tooSlow',
  timeControl: 'challenge.reason.timeControl',
  rated: 'challenge.reason.rated',
  casual: 'challenge.reason.casual',
  standard: 'challenge.reason.standard',
  variant: 'challenge.reason.variant',
  noBot: 'challenge.reason.noBot',
  onlyBot: 'challenge.reason.onlyBot',
};

/** The sentence key of a decline reason key (any case, as lichess accepts); the generic one for an unknown or missing key. */
export function reasonKey(key: string | null | undefined): Key {
  const found = Object.keys(REASONS).find((k) => k.toLowerCase() === (key ?? '').toLowerCase());
  return REASONS[found ?? 'generic']!;
}

/** The short label of a decline choice in the reason list. */
export function choiceKey(c: DeclineChoice): Key {
  const keys: Record<DeclineChoice, Key> = {
    generic: 'challenge.choice.generic',
    later: 'challenge.choice.later',
    tooFast: 'challenge.choice.tooFast',
    tooSlow: 'challenge.choice.tooSlow',
    rated: 'challenge.choice.rated',
    casual: 'challenge.choice.casual',
  };
  return keys[c];
}

/** Why a challenge that no longer waits ended, for its challenger; null when it was accepted (or still waits). */
export function endedText(c: Challenge, name: string): string | null {
  switch (c.status) {
    case 'declined':
      return `${t('challenge.ended.declined', { name })} ${t(reasonKey(c.declineReasonKey))}`;
    case 'canceled':
      return t('challenge.ended.canceled');
    case 'offline':
      return t('challenge.ended.offline');
    case 'accepted':
    case 'created':
      return null;
    default:
      return t('challenge.ended.unknown');
  }
}

/** "5+3" from a challenge's clock (seconds), or "–" without one. */
export function challengeClock(c: Challenge): string {
  const { limit, increment } = c.timeControl;
  if (limit === undefined || increment === undefined) return '–';
  return `${limit % 60 === 0 ? limit / 60 : (limit / 60).toFixed(1)}+${increment}`;
}

/** A challenge's terms in words: ["5+3", "Blitz", "Standard chess", "Casual"]. */
export function challengeTerms(c: Challenge): string[] {
  const speed = ['bullet', 'blitz', 'rapid', 'classical'].includes(c.speed) ? t(`speed.${c.speed}` as Key) : c.speed;
  const variant = c.variant.key === 'chess960' ? t('variant.chess960') : t('variant.standard');
  return [challengeClock(c), speed, variant, t(c.rated ? 'multiplayer.rated' : 'multiplayer.casual')];
}

/** Where a challenge's game is played: its table's page when it has one, else the game page. */
export function gamePath(id: string, table: string | null | undefined): string {
  return table ? `/t/${encodeURIComponent(table)}` : `/game/${encodeURIComponent(id)}`;
}

/** The message for a failed challenge request: `making` one, or answering/cancelling one. */
export function challengeErrorText(e: unknown, making: boolean): string {
  if (!(e instanceof ApiError)) return t('error.generic');
  if (e.code === 'network') return t('error.network');
  if (e.status === 401) return t('error.not_logged_in');
  if (e.status === 429) return t('challenge.error.tooMany');
  if (making && e.status === 404) return t('challenge.error.noUser');
  if (making && e.status === 400) return t('challenge.error.invalid');
  if (e.status === 400 || e.status === 404) return t('challenge.error.gone');
  if (e.status === 403) return t('challenge.error.forbidden');
  return t('error.generic');
}
