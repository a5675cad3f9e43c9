//! The clubs' HTTP calls and wire types: lichess's team API as the server
//! answers it (docs/api.md), with the session cookie.
import { ApiError, call, failure } from '../api.js';

/** A user as a team shows one (lichess's `LightUser`). */
export interface ClubUser {
  id: string;
  name: string;
}

/** A club (lichess's `Team`); `joined` and `requested` only for a logged-in viewer. */
export interface Club {
  id: string;
  name: string;
  description: string;
  open: boolean;
  leader?: ClubUser;
  leaders: ClubUser[];
  nbMembers: number;
  joined?: boolean;
  requested?: boolean;
}

/** One line of GET /api/team/{id}/users: a member and when they joined (Unix milliseconds). */
export interface ClubMember {
  id: string;
  name: string;
  joinedTeamAt: number;
}

/** A page of clubs (lichess's paginator). */
export interface ClubPage {
  currentPage: number;
  maxPerPage: number;
  currentPageResults: Club[];
  nbResults: number;
  previousPage: number | null;
  nextPage: number | null;
  nbPages: number;
}

/** A pending (or declined) request to join a closed club. */
export interface JoinRequest {
  request: { date: number; message: string; teamId: string; userId: string };
  user: { id: string; username: string };
}

/** A line of a club's chat (`t` in Unix milliseconds). */
export interface ClubChatLine {
  user: string;
  text: string;
  t: number;
}

/** Body of POST /api/team. */
export interface NewClub {
  name: string;
  description: string;
  open: boolean;
}

const team = (id: string) => `/api/team/${encodeURIComponent(id)}`;

/** The members in an NDJSON answer, in its order (blank and broken lines skipped). */
export function parseMembers(ndjson: string): ClubMember[] {
  const out: ClubMember[] = [];
  for (const line of ndjson.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const m = JSON.parse(line) as Partial<ClubMember>;
      if (typeof m.id === 'string' && typeof m.name === 'string') out.push({ id: m.id, name: m.name, joinedTeamAt: Number(m.joinedTeamAt) });
    } catch {
      // A line cut short: the others still count.
    }
  }
  return out;
}

/** Creates a club led by the account. */
export function createClub(req: NewClub): Promise<Club> {
  return call('POST', '/api/team', req);
}

/** A club, with the viewer's membership when logged in. */
export function getClub(id: string): Promise<Club> {
  return call('GET', team(id));
}

/** The latest `max` members to join, newest first. */
export async function clubMembers(id: string, max: number): Promise<ClubMember[]> {
  let res: Response;
  try {
    res = await fetch(`${team(id)}/users?max=${max}`, { credentials: 'same-origin' });
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
  return parseMembers(await res.text());
}

/** The clubs a player is a member of. */
export function clubsOf(username: string): Promise<Club[]> {
  return call('GET', `/api/team/of/${encodeURIComponent(username)}`);
}

/** Page `page` of every club, the largest first, or of those whose name holds `text`. */
export function listClubs(text: string, page: number): Promise<ClubPage> {
  return text.trim() === '' ? call('GET', `/api/team/all?page=${page}`) : call('GET', `/api/team/search?text=${encodeURIComponent(text.trim())}&page=${page}`);
}

/** Joins an open club, or asks a closed one's leaders with `message`; whether the account is now a member. */
export async function joinClub(id: string, message: string): Promise<boolean> {
  return (await call<{ ok: boolean; joined: boolean }>('POST', `/team/${encodeURIComponent(id)}/join`, { message })).joined;
}

/** Leaves a club. */
export async function quitClub(id: string): Promise<void> {
  await call('POST', `/team/${encodeURIComponent(id)}/quit`);
}

/** The pending requests to join (for a leader). */
export function clubRequests(id: string): Promise<JoinRequest[]> {
  return call('GET', `${team(id)}/requests`);
}

/** Accepts or declines `userId`'s request. */
export async function answerRequest(id: string, userId: string, accept: boolean): Promise<void> {
  await call('POST', `${team(id)}/request/${encodeURIComponent(userId)}/${accept ? 'accept' : 'decline'}`);
}

/** Removes a member (not a leader) from the club. */
export async function kickMember(id: string, userId: string): Promise<void> {
  await call('POST', `${team(id)}/kick/${encodeURIComponent(userId)}`);
}

/** Makes a member a leader (`lead`), or takes the lead away. */
export async function setLeader(id: string, userId: string, lead: boolean): Promise<void> {
  await call('POST', `${team(id)}/leaders/${encodeURIComponent(userId)}/${lead ? 'add' : 'remove'}`);
}

/** Changes the description and whether the club is open; the club as it now is. */
export function editClub(id: string, description: string, open: boolean): Promise<Club> {
  return call('POST', `${team(id)}/edit`, { description, open });
}

/** The members' chat, oldest first (members only). */
export function clubChat(id: string): Promise<ClubChatLine[]> {
  return call('GET', `${team(id)}/chat`);
}

/** Says `text` in the members' chat. */
export async function sayInClub(id: string, text: string): Promise<void> {
  await call('POST', `${team(id)}/chat`, { text });
}

