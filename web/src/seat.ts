//! How the players of a game are named.
import type { Seat } from './api.js';
import { type Key, t } from './i18n.js';

/** How a seat is named: the username, the computer and its level, an imported game's name from its PGN, "Anonymous" or "deleted player". */
export function seatName(seat: Seat): string {
  switch (seat.kind) {
    case 'user':
      return seat.name ?? t('seat.anonymous');
    case 'computer':
      return t('seat.computer', { level: seat.level ? t(`level.${seat.level}` as Key) : '' });
    case 'deleted':
      return t('seat.deleted');
    case 'pgn':
      return seat.name ?? '?';
    default:
      return t('seat.anonymous');
  }
}
