//! The Swiss page's HTTP calls and wire types: lichess's Swiss API as the
//! server answers it (docs/api.md, "Swiss tournaments"), with the session cookie.
import { call } from '../api.js';

/** A Swiss (lichess's `SwissTournament` fields the page uses). */
export interface SwissInfo {
  id: string;
  name: string;
  status: 'created' | 'started' | 'finished';
  round: number;
  nbRounds: number;
  nbPlayers: number;
  teamId: string;
  clock: { limit: number; increment: number };
  roundInterval: number;
  nextRound?: { at: string; in: number };
  /** Who may chat: 0 nobody, 10 the club's leaders, 20 its members, 30 anyone logged in. */
  chatFor?: number;
}

/** A line of a Swiss's chat (`t` in Unix milliseconds). */
export interface SwissChatLine {
  user: string;
  text: string;
  t: number;
}

/** A line of the results (NDJSON). */
export interface SwissResult {
  rank: number;
  points: number;
  tieBreak: number;
  buchholz: number;
  rating: number;
  username: string;
  performance?: number;
  absent?: boolean;
}

/** A board of a round. */
export interface SwissBoard {
  white: string;
  black: string;
  result: string;
  gameId: string;
}

/** A paired round. */
export interface SwissRound {
  round: number;
  boards: SwissBoard[];
  bye: string | null;
}

/** lichess's `roundInterval` for rounds a leader starts. */
export const MANUAL_INTERVAL = 99_999_999;

const swiss = (id: string) => `/api/swiss/${encodeURIComponent(id)}`;

/** The results in an NDJSON answer, in its order (blank and broken lines skipped). */
export function parseResults(ndjson: string): SwissResult[] {
  const out: SwissResult[] = [];
  for (const line of ndjson.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const r = JSON.parse(line) as Partial<SwissResult>;
      if (typeof r.username === 'string' && typeof r.rank === 'number') out.push(r as SwissResult);
    } catch {
      // A line cut short: the others still count.
    }
  }
  return out;
}

/** The Swiss `id`. */
export function getSwiss(id: string): Promise<SwissInfo> {
  return call('GET', swiss(id));
}

/** Its paired rounds. */
export async function swissRounds(id: string): Promise<SwissRound[]> {
  const r = await call<{ rounds: SwissRound[] }>('GET', `${swiss(id)}/rounds`);
  return r.rounds;
}

/** Its results, the leader first. */
export async function swissResults(id: string): Promise<SwissResult[]> {
  const res = await fetch(`${swiss(id)}/results`, { credentials: 'same-origin' });
  return res.ok ? parseResults(await res.text()) : [];
}

/** Joins (or comes back). */
export function joinSwiss(id: string): Promise<unknown> {
  return call('POST', `${swiss(id)}/join`, {});
}

/** Withdraws. */
export function withdrawSwiss(id: string): Promise<unknown> {
  return call('POST', `${swiss(id)}/withdraw`, {});
}

/** A leader pairs the next round now. */
export function nextRound(id: string): Promise<unknown> {
  return call('POST', `${swiss(id)}/schedule-next-round`, {});
}

/** The Swiss's chat, oldest first (refused to those it does not let in). */
export function swissChat(id: string): Promise<SwissChatLine[]> {
  return call('GET', `${swiss(id)}/chat`);
}

/** Says a line in the Swiss's chat. */
export async function sayInSwiss(id: string, text: string): Promise<void> {
  await call('POST', `${swiss(id)}/chat`, { text });
}

/** Path of a Swiss's TRF export. */
export function trfPath(id: string): string {
  return `/swiss/${encodeURIComponent(id)}.trf`;
}
