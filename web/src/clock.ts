//! Chess clocks in the browser: the time left on each side, counted down
//! from the server's last clock state and the moment it was received (the
//! server is the authority; every message corrects the count), and how a
//! time is written (m:ss, tenths of a second under ten seconds).
import type { ClockState, Color } from './api.js';

/** Below this many milliseconds a clock shows tenths and warns its player. */
export const LOW_TIME_MS = 10_000;

/** A clock state together with when it arrived (a monotonic time in ms, e.g. `performance.now()`). */
export interface ReceivedClock {
  clock: ClockState;
  at: number;
}

/** Milliseconds left to `color` at monotonic time `now`: the running side loses the time elapsed since receipt. */
export function remaining(r: ReceivedClock, color: Color, now: number): number {
  const base = color === 'white' ? r.clock.white_ms : r.clock.black_ms;
  const spent = r.clock.running === color ? Math.max(0, now - r.at) : 0;
  return Math.max(0, base - spent);
}

/**
 * A clock's text: `m:ss` (or `h:mm:ss` from an hour), and `s.t` with tenths
 * under ten seconds (`0:09.4`). Time is cut down, never rounded up, so a
 * clock never shows more than is left.
 */
export function formatClock(ms: number): string {
  const left = Math.max(0, Math.floor(ms));
  const totalSeconds = Math.floor(left / 1000);
  const seconds = totalSeconds % 60;
  const minutes = Math.floor(totalSeconds / 60) % 60;
  const hours = Math.floor(totalSeconds / 3600);
  const ss = String(seconds).padStart(2, '0');
  if (left < LOW_TIME_MS) return `0:${ss}.${Math.floor((left % 1000) / 100)}`;
  if (hours > 0) return `${hours}:${String(minutes).padStart(2, '0')}:${ss}`;
  return `${minutes}:${ss}`;
}

/** Is `ms` low enough to warn the player? */
export function isLow(ms: number): boolean {
  return ms < LOW_TIME_MS;
}
