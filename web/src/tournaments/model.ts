//! Pure facts about Arenas that the tournament pages share: the create
//! form's settings checked and turned into lichess's request, a countdown
//! in words, a clock as "3+2", the standing's pages, and how a refused
//! action is worded.
import { ApiError } from '../api.js';
import { type Key, t } from '../i18n.js';
import type { ArenaFull, NewArenaRequest } from './api.js';

/** What the create form holds, as typed. */
export interface ArenaForm {
  name: string;
  clockMinutes: string;
  increment: string;
  minutes: string;
  /** `wait`: start in `waitMinutes`; `at`: start at `startAt` (local datetime-local text). */
  startMode: 'wait' | 'at';
  waitMinutes: string;
  startAt: string;
  rated: boolean;
  berserkable: boolean;
  streakable: boolean;
  hasChat: boolean;
  description: string;
  password: string;
  /** A club the creator leads, '' for none. */
  club: string;
  minRating: string;
  maxRating: string;
  minRatedGames: string;
}

/** The form's first values: a 3+2 Arena of 45 minutes in 5 minutes, lichess's defaults. */
export function defaultArenaForm(): ArenaForm {
  return {
    name: '',
    clockMinutes: '3',
    increment: '2',
    minutes: '45',
    startMode: 'wait',
    waitMinutes: '5',
    startAt: '',
    rated: true,
    berserkable: true,
    streakable: true,
    hasChat: true,
    description: '',
    password: '',
    club: '',
    minRating: '',
    maxRating: '',
    minRatedGames: '',
  };
}

/** Players in one page of the standing (the server's). */
export const STANDING_PAGE = 10;

function whole(text: string, min: number, max: number): number | null {
  const s = text.trim();
  if (!/^\d+$/.test(s)) return null;
  const n = Number(s);
  return n >= min && n <= max ? n : null;
}

/** The request for form `f` at `now` (Unix ms), or the key of the first thing wrong with it. */
export function arenaRequest(f: ArenaForm, now: number): { ok: NewArenaRequest } | { error: Key } {
  const base = Number(f.clockMinutes.trim());
  if (f.clockMinutes.trim() === '' || !Number.isFinite(base) || base < 0 || base > 60) return { error: 'arena.form.error.clock' };
  const inc = whole(f.increment, 0, 60);
  if (inc === null) return { error: 'arena.form.error.increment' };
  if (base === 0 && inc === 0) return { error: 'arena.form.error.clockZero' };
  const minutes = whole(f.minutes, 5, 1440);
  if (minutes === null) return { error: 'arena.form.error.minutes' };
  if (f.name.trim().length > 0 && (f.name.trim().length < 2 || f.name.trim().length > 30)) return { error: 'arena.form.error.name' };
  const req: NewArenaRequest = {
    clockTime: base,
    clockIncrement: inc,
    minutes,
    rated: f.rated,
    berserkable: f.berserkable,
    streakable: f.streakable,
    hasChat: f.hasChat,
  };
  if (f.name.trim()) req.name = f.name.trim();
  if (f.description.trim()) req.description = f.description.trim();
  if (f.password) req.password = f.password;
  if (f.club) req['conditions.teamMember.teamId'] = f.club;
  if (f.startMode === 'wait') {
    const wait = whole(f.waitMinutes, 0, 360);
    if (wait === null) return { error: 'arena.form.error.wait' };
    req.waitMinutes = wait;
  } else {
    const at = new Date(f.startAt).getTime();
    if (!f.startAt || Number.isNaN(at) || at < now - 60_000) return { error: 'arena.form.error.start' };
    req.startDate = Math.max(at, now);
  }
  const bounds: Array<[string, string, number, number, Key]> = [
    [f.minRating, 'conditions.minRating.rating', 400, 3500, 'arena.form.error.rating'],
    [f.maxRating, 'conditions.maxRating.rating', 400, 3500, 'arena.form.error.rating'],
    [f.minRatedGames, 'conditions.nbRatedGame.nb', 0, 1000, 'arena.form.error.games'],
  ];
  for (const [text, field, min, max, key] of bounds) {
    if (text.trim() === '') continue;
    const n = whole(text, min, max);
    if (n === null) return { error: key };
    req[field] = n;
  }
  if (f.minRating.trim() && f.maxRating.trim() && Number(f.minRating) > Number(f.maxRating)) return { error: 'arena.form.error.rating' };
  return { ok: req };
}

/** "3+2" from a clock in seconds ("½+0" for 30 s). */
export function clockText(c: { limit: number; increment: number }): string {
  const m = c.limit / 60;
  const base = Number.isInteger(m) ? String(m) : m === 0.5 ? '½' : m === 0.25 ? '¼' : m.toFixed(1);
  return `${base}+${c.increment}`;
}

/** "1:05:09" or "4:03" for a number of seconds. */
export function countdownText(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/** Where an Arena stands: its status word's key. */
export function statusKey(a: { status: number }): Key {
  return a.status >= 30 ? 'arena.status.finished' : a.status >= 20 ? 'arena.status.started' : 'arena.status.created';
}

/** Seconds left of what the page counts down to (the start, else the end) at `now`, from an answer received at `fetchedAt`. */
export function secondsLeft(a: ArenaFull, fetchedAt: number, now: number): number | null {
  const base = a.secondsToStart ?? a.secondsToFinish;
  if (base === undefined) return null;
  return Math.max(0, base - (now - fetchedAt) / 1000);
}

/** The number of standing pages for `players` players. */
export function standingPages(players: number): number {
  return Math.max(1, Math.ceil(players / STANDING_PAGE));
}

/** The sheet's digits, oldest game first (lichess sends the latest first). */
export function sheetDigits(scores: string): string[] {
  return [...scores].reverse();
}

/** The sentence shown for a failed call: the server's own words, or ours when it could not be reached or said nothing. */
export function arenaErrorText(e: unknown): string {
  if (!(e instanceof ApiError)) return t('error.generic');
  if (e.code === 'network') return t('error.network');
  if (e.status === 401) return t('error.not_logged_in');
  if (e.status === 429) return t('arena.error.tooMany');
  if (e.status === 404) return t('arena.error.notFound');
  const text = e.status >= 500 ? '' : e.message.trim();
  return text === '' ? t('error.generic') : text.charAt(0).toUpperCase() + text.slice(1);
}

/** Path of an Arena's page. */
export function arenaPath(id: string): string {
  return `/tournament/${encodeURIComponent(id)}`;
}
