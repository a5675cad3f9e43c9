//! The pure rules of tables on the client: time controls (presets and the
//! allowed custom range), table codes (typed in any case, with spaces or
//! dashes), the lobby's list kept in step with its socket, the open-a-table
//! request, ratings as shown, and the waiting room's expiry in minutes.
import type { LobbyMessage, NewTableRequest, Rules, Table, Variant } from './api.js';

/** Minutes per player a table may have: ½, ¾, 1, 1½, then whole minutes to 180. */
export const MINUTES = { min: 0.5, max: 180 } as const;
/** The bases under two minutes, in minutes (any whole number of minutes up to 180 is allowed too). */
export const SHORT_MINUTES: readonly number[] = [0.5, 0.75, 1.5];
/** Increment in seconds a table may have. */
export const INCREMENT = { min: 0, max: 180 } as const;

/** A time control: minutes per player and seconds added per move. */
export interface TimeControl {
  minutes: number;
  increment: number;
}

/** The preset time controls, in the order shown. */
export const PRESETS: readonly TimeControl[] = [
  { minutes: 1, increment: 0 },
  { minutes: 2, increment: 1 },
  { minutes: 3, increment: 2 },
  { minutes: 5, increment: 3 },
  { minutes: 10, increment: 5 },
  { minutes: 15, increment: 10 },
  { minutes: 30, increment: 20 },
];

/** "5+3". */
export function tcLabel(tc: TimeControl): string {
  return `${tc.minutes}+${tc.increment}`;
}

/** Reads a time control typed as text; null unless in range (minutes 0.5, 0.75, 1.5 or whole; seconds whole). */
export function parseTimeControl(minutes: string, increment: string): TimeControl | null {
  const m = /^\s*(0|[1-9]\d{0,2}|0\.5|0\.75|1\.5)\s*$/.test(minutes) ? Number(minutes) : NaN;
  const i = /^\s*(0|[1-9]\d{0,2})\s*$/.test(increment) ? Number(increment) : NaN;
  const tc = { minutes: m, increment: i };
  return validTimeControl(tc) ? tc : null;
}

/** Is `tc` one a table may have (½, ¾, 1½ or whole minutes 1–180; whole seconds 0–180)? */
export function validTimeControl(tc: TimeControl): boolean {
  return (
    (Number.isInteger(tc.minutes) || SHORT_MINUTES.includes(tc.minutes)) &&
    Number.isInteger(tc.increment) &&
    tc.minutes >= MINUTES.min &&
    tc.minutes <= MINUTES.max &&
    tc.increment >= INCREMENT.min &&
    tc.increment <= INCREMENT.max
  );
}

/** The characters of table codes: no 0/O, 1/I/L look-alikes. */
export const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
/** Characters in a table code. */
export const CODE_LENGTH = 6;

/**
 * A code as typed (any case, spaces and dashes, or a whole table link) in
 * its canonical upper-case form, or null if it cannot be a table code.
 */
export function normalizeCode(typed: string): string | null {
  let s = typed.trim();
  const link = /\/t\/([^/?#\s]+)\/?(?:[?#].*)?$/.exec(s);
  if (link) s = decodeURIComponent(link[1]!);
  s = s.replace(/[\s-]+/g, '').toUpperCase();
  if (s.length !== CODE_LENGTH) return null;
  for (const c of s) if (!CODE_ALPHABET.includes(c)) return null;
  return s;
}

/** The lobby after a socket message: a fresh list, one table added (newest first, no duplicates), or one removed. */
export function lobbyReduce(tables: readonly Table[], msg: LobbyMessage): Table[] {
  switch (msg.t) {
    case 'lobby':
      return [...msg.tables];
    case 'add':
      return [msg.table, ...tables.filter((t) => t.code !== msg.table.code)];
    case 'remove':
      return tables.filter((t) => t.code.toUpperCase() !== msg.code.toUpperCase());
    default:
      return [...tables];
  }
}

/** Are these two names the same account (names are unique regardless of case)? */
export function sameName(a: string | null | undefined, b: string | null | undefined): boolean {
  return !!a && !!b && a.toLowerCase() === b.toLowerCase();
}

/** "1500" or "1500?" while provisional. */
export function ratingLabel(r: { rating: number; provisional: boolean }): string {
  return `${Math.round(r.rating)}${r.provisional ? '?' : ''}`;
}

/** A rating change with its sign: "+8", "−8" (a true minus sign), "±0". */
export function signed(n: number): string {
  const r = Math.round(n);
  if (r > 0) return `+${r}`;
  if (r < 0) return `−${-r}`;
  return '±0';
}

/** The open-a-table form's choices (minutes and increment as typed). */
export interface TableSettings {
  variant: Variant;
  minutes: string;
  increment: string;
  rules: Rules;
  rated: boolean;
  private: boolean;
}

/** The request for `s`, or null when the time control is out of range. */
export function tableRequest(s: TableSettings): NewTableRequest | null {
  const tc = parseTimeControl(s.minutes, s.increment);
  if (!tc) return null;
  return { variant: s.variant, minutes: tc.minutes, increment: tc.increment, rules: s.rules, rated: s.rated, public: !s.private };
}

/** Minutes (rounded up) until an ISO time, at least 0; null if it is not a time. */
export function minutesUntil(iso: string, now = Date.now()): number | null {
  const at = new Date(iso).getTime();
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 60_000));
}
