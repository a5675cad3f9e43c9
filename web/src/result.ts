//! Wording of game results for the banner, the recent games list and announcements.
import type { Color, Status } from './api.js';
import { type Key, t } from './i18n.js';

/** Headline and reason of a finished game from the viewer's side. */
export interface ResultText {
  headline: string;
  reason: string | null;
  /** 'win' | 'loss' | 'draw' from the viewer's side; 'neutral' for spectators. */
  tone: 'win' | 'loss' | 'draw' | 'neutral';
}

/** What a game's outcome depends on. */
export interface Outcome {
  status: Status;
  result: string;
  reason: string | null;
}

/** Who won, from a PGN result. */
export function winner(result: string): Color | 'draw' | null {
  if (result === '1-0') return 'white';
  if (result === '0-1') return 'black';
  if (result === '1/2-1/2') return 'draw';
  return null;
}

/** Was game `g` aborted (called off before both sides had moved: it ended without a result)? */
export function isAborted(g: Outcome): boolean {
  return g.status === 'ended' && g.result === '*';
}

function aborted(): ResultText {
  return { headline: t('result.aborted'), reason: null, tone: 'neutral' };
}

/** Describes `result` (PGN form) with `reason` for a viewer playing `you` (null: spectator). */
export function resultText(result: string, you: Color | null, reason: string | null = null): ResultText {
  const w = winner(result);
  if (w === null && reason === 'aborted') return aborted();
  const reasonText = reason ? t(`reason.${reason}` as Key) : null;
  // An unknown reason code shows no reason rather than a raw key.
  const r = reasonText && !reasonText.startsWith('reason.') ? reasonText : null;
  if (w === 'draw') return { headline: t('result.draw'), reason: r, tone: you ? 'draw' : 'neutral' };
  if (w === null) return { headline: t('status.ongoing'), reason: r, tone: 'neutral' };
  if (you === null) return { headline: t(w === 'white' ? 'result.whiteWins' : 'result.blackWins'), reason: r, tone: 'neutral' };
  return w === you ? { headline: t('result.youWin'), reason: r, tone: 'win' } : { headline: t('result.youLose'), reason: r, tone: 'loss' };
}

/** Describes where game `g` stands for a viewer playing `you` (null: spectator): in progress, aborted, or its result. */
export function outcomeText(g: Outcome, you: Color | null): ResultText {
  if (g.status === 'ongoing') return { headline: t('status.ongoing'), reason: null, tone: 'neutral' };
  if (isAborted(g)) return aborted();
  return resultText(g.result, you, g.reason);
}

/** May game `g` be reviewed: a finished game that was not aborted, or any imported game? */
export function isReviewable(g: Outcome & { kind?: string }): boolean {
  return g.kind === 'imported' || (g.status === 'ended' && !isAborted(g));
}
