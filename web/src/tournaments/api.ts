//! The Arena tournaments' HTTP calls and wire types: lichess's Arena API as
//! the server answers it (docs/api.md, "Arena tournaments"), with the
//! session cookie, and the account's event stream that pairs the viewer.
import { ApiError, call, failure } from '../api.js';

/** An Arena as the lists show one (lichess's `ArenaTournament`; times in Unix ms). */
export interface ArenaSummary {
  id: string;
  createdBy: string;
  fullName: string;
  minutes: number;
  clock: { limit: number; increment: number };
  rated: boolean;
  nbPlayers: number;
  startsAt: number;
  finishesAt: number;
  /** 10 created, 20 started, 30 finished. */
  status: number;
  berserkable: boolean;
  secondsToStart?: number;
  teamMember?: string;
  private?: boolean;
}

/** The three lists of `GET /api/tournament`. */
export interface ArenaLists {
  created: ArenaSummary[];
  started: ArenaSummary[];
  finished: ArenaSummary[];
}

/** A player in the standing or the podium. */
export interface ArenaPlayer {
  name: string;
  rank: number;
  rating: number;
  score: number;
  sheet: { scores: string; fire?: boolean };
  withdraw?: boolean;
}

/** One Arena (lichess's `ArenaTournamentFull`, the fields that apply; times ISO 8601). */
export interface ArenaFull {
  id: string;
  createdBy: string;
  fullName: string;
  minutes: number;
  clock: { limit: number; increment: number };
  rated: boolean;
  berserkable: boolean;
  hasChat: boolean;
  nbPlayers: number;
  startsAt: string;
  finishesAt: string;
  status: number;
  isStarted: boolean;
  isFinished: boolean;
  pairingsClosed: boolean;
  secondsToStart?: number;
  secondsToFinish?: number;
  description: string;
  standing: { page: number; players: ArenaPlayer[] };
  podium?: ArenaPlayer[];
  teamMember?: string;
  private?: boolean;
  /** The viewer's place, when they joined. */
  me?: { rank: number; username: string; withdraw?: boolean; gameId?: string };
}

/** A line of an Arena's results (`GET /api/tournament/{id}/results?sheet=true`). */
export interface ArenaResult {
  rank: number;
  score: number;
  rating: number;
  username: string;
  performance: number;
  sheet?: { scores: string; fire?: boolean };
}

/** A line of an Arena's chat (`t` in Unix milliseconds). */
export interface ArenaChatLine {
  user: string;
  text: string;
  t: number;
}

/** The body of `POST /api/tournament` (berserk's `create_arena` fields). */
export type NewArenaRequest = Record<string, string | number | boolean>;

const arena = (id: string) => `/api/tournament/${encodeURIComponent(id)}`;

/** The objects of an NDJSON answer, in order (blank and broken lines skipped). */
export function parseNdjson<T>(text: string): T[] {
  const out: T[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      out.push(JSON.parse(line) as T);
    } catch {
      // A line cut short: the others still count.
    }
  }
  return out;
}

async function ndjson<T>(path: string): Promise<T[]> {
  let res: Response;
  try {
    res = await fetch(path, { credentials: 'same-origin', headers: { Accept: 'application/x-ndjson' } });
  } catch (e) {
    throw new ApiError(0, 'network', String(e));
  }
  if (!res.ok) {
    let json: unknown = null;
    try {
      json = await res.json();
    } catch {
      // The status says enough.
    }
    throw failure({ status: res.status, ok: false, statusText: res.statusText, headers: res.headers, json });
  }
  return parseNdjson<T>(await res.text());
}

/** The created, started and finished Arenas. */
export function listArenas(): Promise<ArenaLists> {
  return call('GET', '/api/tournament');
}

/** Creates an Arena; the Arena as the server shows it. */
export function createArena(req: NewArenaRequest): Promise<ArenaFull> {
  return call('POST', '/api/tournament', req);
}

/** One Arena with page `page` of its standing. */
export function getArena(id: string, page: number): Promise<ArenaFull> {
  return call('GET', `${arena(id)}?page=${page}`);
}

/** Joins (or comes back to) an Arena. */
export async function joinArena(id: string, password: string): Promise<void> {
  await call('POST', `${arena(id)}/join`, password ? { password } : {});
}

/** Pauses (withdraws from) an Arena. */
export async function withdrawArena(id: string): Promise<void> {
  await call('POST', `${arena(id)}/withdraw`);
}

/** Ends an Arena now (its creator only). */
export async function terminateArena(id: string): Promise<void> {
  await call('POST', `${arena(id)}/terminate`);
}

/** Every player's result with their sheet, leader first. */
export function arenaResults(id: string): Promise<ArenaResult[]> {
  return ndjson(`${arena(id)}/results?sheet=true`);
}

/** A club's Arenas, the latest start first. */
export function clubArenas(club: string): Promise<ArenaSummary[]> {
  return ndjson(`/api/team/${encodeURIComponent(club)}/arena?max=20`);
}

/** The Arena's chat, oldest first. */
export function arenaChat(id: string): Promise<ArenaChatLine[]> {
  return call('GET', `${arena(id)}/chat`);
}

/** Says `text` in the Arena's chat. */
export async function sayInArena(id: string, text: string): Promise<void> {
  await call('POST', `${arena(id)}/chat`, { text });
}

/** Goes berserk in an Arena game (before one's first move). */
export async function goBerserk(game: string): Promise<void> {
  await call('POST', `/api/board/game/${encodeURIComponent(game)}/berserk`);
}

/** The Arena a game was paired in, or null. */
export async function arenaOfGame(game: string): Promise<{ id: string; fullName: string; berserkable: boolean } | null> {
  try {
    return await call('GET', `/api/tournament/of-game/${encodeURIComponent(game)}`);
  } catch {
    return null;
  }
}

/**
 * Holds the account's event stream (`GET /api/stream/event`) open: while
 * it is, the server counts the viewer online (so the director pairs them)
 * and tells of each game that starts (`gameStart`) or ends (`gameFinish`).
 * Ends when `signal` aborts; reports the game ids through `onEvent`.
 */
export async function followEvents(signal: AbortSignal, onEvent: (type: string, gameId: string) => void): Promise<void> {
  const res = await fetch('/api/stream/event', { credentials: 'same-origin', signal });
  if (!res.ok || !res.body) throw new ApiError(res.status, 'stream', res.statusText);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let rest = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    rest += decoder.decode(value, { stream: true });
    const lines = rest.split('\n');
    rest = lines.pop() ?? '';
    for (const e of parseNdjson<{ type?: string; game?: { gameId?: string; id?: string } }>(lines.join('\n'))) {
      const id = e.game?.gameId ?? e.game?.id;
      if (e.type && id) onEvent(e.type, id);
    }
  }
}
