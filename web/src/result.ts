//! Wording of game results for the banner, the recent games list and announcements.
import type { Color } from './api.js';
import { type Key, t } from './i18n.js';

/** Headline and reason of a finished game from the viewer's side. */
export interface ResultText {
  headline: string;
  reason: string | null;
  /** 'win' | 'loss' | 'draw' from the viewer's side; 'neutral' for spectators. */
  tone: 'win' | 'loss' | 'draw' | 'neutral';
}

/** Who won, from a PGN result. */
export function winner(result: string): Color | 'draw' | null {
  if (result === '1-0') return 'white';
  if (result === '0-1') return 'black';
  if (result === '1/2-1/2') return 'draw';
  return null;
}

/** Describes `result` (PGN form) with `reason` for a viewer playing `you` (null: spectator). */
export function resultText(result: string, you: Color | null, reason: string | null = null): ResultText {
  const w = winner(result);
  const reasonText = reason ? t(`reason.${reason}` as Key) : null;
  // An unknown reason code shows no reason rather than a raw key.
  const r = reasonText && !reasonText.startsWith('reason.') ? reasonText : null;
  if (w === 'draw') return { headline: t('result.draw'), reason: r, tone: you ? 'draw' : 'neutral' };
  if (w === null) return { headline: t('status.ongoing'), reason: r, tone: 'neutral' };
  if (you === null) return { headline: t(w === 'white' ? 'result.whiteWins' : 'result.blackWins'), reason: r, tone: 'neutral' };
  return w === you ? { headline: t('result.youWin'), reason: r, tone: 'win' } : { headline: t('result.youLose'), reason: r, tone: 'loss' };
}
