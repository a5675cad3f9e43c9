//! Quick pairing on the client, pure: the grid's cells (every preset time
//! control, in Chess and in Chess960), the lobby's waiting seeks kept in
//! step with its socket, how many wait for each cell, and the request.
import type { LobbyMessage, NewSeekRequest, Seek, Speed, Variant } from '../api.js';
import { PRESETS, sameName, tcLabel } from '../tables.js';

/** One button of the grid: a preset in one variant. */
export interface Cell {
  variant: Variant;
  minutes: number;
  increment: number;
  /** The preset's speed, as the server names it (`docs/protocol.md`, "Quick pairing"). */
  speed: Speed;
}

/** The server's speed of each preset (bullet under 3 minutes for 40 moves, blitz under 8, classical from 25). */
const PRESET_SPEED: Readonly<Record<string, Speed>> = { '1+0': 'bullet', '2+1': 'bullet', '3+2': 'blitz', '5+3': 'blitz', '10+5': 'rapid', '15+10': 'rapid', '30+20': 'classical' };

/** The grid: the presets in Chess, then in Chess960. */
export const CELLS: readonly Cell[] = (['standard', 'chess960'] as const).flatMap((variant) =>
  PRESETS.map((tc) => ({ variant, minutes: tc.minutes, increment: tc.increment, speed: PRESET_SPEED[tcLabel(tc)] ?? 'rapid' })),
);

/** A cell's stable name: "standard-3+2". */
export function cellId(c: Pick<Cell, 'variant' | 'minutes' | 'increment'>): string {
  return `${c.variant}-${tcLabel(c)}`;
}

/** The waiting seeks after a lobby message: the whole list, one added (no duplicates), or one removed. */
export function seeksReduce(seeks: readonly Seek[], msg: LobbyMessage): Seek[] {
  switch (msg.t) {
    case 'lobby':
      return [...(msg.seeks ?? [])];
    case 'seek_add':
      return [...seeks.filter((s) => s.id !== msg.seek.id), msg.seek];
    case 'seek_remove':
      return seeks.filter((s) => s.id !== msg.id);
    default:
      return [...seeks];
  }
}

/** How many others wait for `cell` (rated or casual as asked), not counting `me`. */
export function waitingFor(seeks: readonly Seek[], cell: Cell, rated: boolean, me?: string | null): number {
  return seeks.filter((s) => s.variant === cell.variant && s.minutes === cell.minutes && s.increment === cell.increment && s.rated === rated && !sameName(s.name, me)).length;
}

/** The request seeking `cell`. */
export function seekRequest(cell: Cell, rated: boolean): NewSeekRequest {
  return { variant: cell.variant, minutes: cell.minutes, increment: cell.increment, rated };
}
