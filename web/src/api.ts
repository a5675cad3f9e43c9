//! The HTTP side of docs/protocol.md: wire types and fetch helpers.

export type Color = 'white' | 'black';
export type Level = 'beginner' | 'easy' | 'normal' | 'hard' | 'expert';
export type Variant = 'standard' | 'chess960';
export type Rules = 'plyyard' | 'fide';
/** Draws that can be claimed under FIDE rules. */
export type ClaimReason = 'threefold_repetition' | 'fifty_moves';
export type Status = 'ongoing' | 'ended' | string;

export const LEVELS: readonly Level[] = ['beginner', 'easy', 'normal', 'hard', 'expert'];

/** One played move as the server reports it (SAN in English letters). */
export interface MoveRecord {
  uci: string;
  san: string;
}

/** The whole state of a game (protocol "GameState"). */
export interface GameState {
  id: string;
  v: number;
  kind: string;
  level: Level | null;
  you: Color | null;
  rules: Rules | string;
  variant: Variant;
  position: number | null;
  initial_fen: string;
  fen: string;
  turn: Color;
  ply: number;
  check: boolean;
  moves: MoveRecord[];
  last_move: [string, string] | null;
  dests: Record<string, string[]>;
  status: Status;
  result: string;
  reason: string | null;
  thinking: boolean;
  /** Draws the side to move may claim now (FIDE rules); absent from older servers. */
  claimable?: ClaimReason[];
  created_at: string;
  /** Who plays each side; absent from older servers. */
  white?: Seat;
  black?: Seat;
  // Table games (kind "table") only:
  /** The table's code. */
  table?: string | null;
  rated?: boolean;
  speed?: Speed | string;
  /** Both clocks as they stood when the server made the message. */
  clock?: ClockState | null;
  /** A draw offer made with the last move, pending until the opponent accepts or plays. */
  draw_offer?: Color | null;
  /** The side asking to take back its last move (casual games). */
  takeback_offer?: Color | null;
  /** Which players' connections are gone. */
  away?: { white: boolean; black: boolean } | null;
  /** May the viewer claim the game, the opponent being away long enough? */
  can_claim_away?: boolean;
  /** The side that may claim against an away opponent now. */
  away_claimable_by?: Color | null;
  /** Milliseconds left for the side to move to make its first move (null once both have moved). */
  first_move_deadline_ms?: number | null;
  ratings?: { white: Rating; black: Rating } | null;
  /** Rating points gained or lost in this rated game, once it is over. */
  rating_changes?: { white: number; black: number } | null;
  rematch?: { offered_by: Color | null; next_game: string | null } | null;
}

/** Speed category of a time control. */
export type Speed = 'bullet' | 'blitz' | 'rapid' | 'classical';

/** A player's rating in one speed. */
export interface Rating {
  rating: number;
  provisional: boolean;
}

/** The clocks of a table game: remaining milliseconds per side and the side whose clock runs. */
export interface ClockState {
  initial_ms: number;
  increment_ms: number;
  white_ms: number;
  black_ms: number;
  running: Color | null;
  /** Arena games: the sides that went berserk (half the time, no increment). */
  white_berserk?: boolean;
  black_berserk?: boolean;
}

/** A table (protocol "Table"): where two players meet. */
export interface Table {
  code: string;
  url: string;
  status: 'open' | 'playing' | 'closed' | string;
  host: { name: string; rating: number; provisional: boolean };
  variant: Variant;
  minutes: number;
  increment: number;
  rules: Rules;
  rated: boolean;
  public: boolean;
  speed: Speed | string;
  game_id: string | null;
  created_at: string;
  expires_at: string;
}

/** Body of POST /api/tables. */
export interface NewTableRequest {
  variant: Variant;
  minutes: number;
  increment: number;
  rules: Rules;
  rated: boolean;
  public: boolean;
}

/** A player waiting for a game by quick pairing (protocol "Seek"). */
export interface Seek {
  id: number;
  name: string;
  rating: number;
  provisional: boolean;
  variant: Variant;
  minutes: number;
  increment: number;
  rated: boolean;
  speed: Speed | string;
}

/** Body of POST /api/seeks. */
export interface NewSeekRequest {
  variant: Variant;
  minutes: number;
  increment: number;
  rated: boolean;
}

/** The answer of POST /api/seeks once paired. */
export interface Paired {
  game_id: string;
  code: string;
  url: string;
  color: Color;
}

/** Messages of the lobby socket. */
export type LobbyMessage =
  | { t: 'lobby'; tables: Table[]; seeks?: Seek[] }
  | { t: 'add'; table: Table }
  | { t: 'remove'; code: string }
  | { t: 'seek_add'; seek: Seek }
  | { t: 'seek_remove'; id: number };

/** Who sits on one side of a game (protocol "Seat"). */
export interface Seat {
  kind: 'user' | 'anonymous' | 'computer' | 'deleted' | 'pgn';
  /** The username, for `user`. */
  name: string | null;
  /** The level name, for `computer`. */
  level: Level | string | null;
}

/** One row of a profile's game list (protocol "GameListItem"). */
export interface GameListItem {
  id: string;
  kind: string;
  level: Level | null;
  variant: Variant;
  rules: Rules | string;
  status: Status;
  result: string;
  reason: string | null;
  plies: number;
  created_at: string;
  updated_at: string;
  white: Seat;
  black: Seat;
  /** Whether the game counted for ratings. */
  rated: boolean;
  /** Lichess's perf key (`bullet`, `blitz`, …, `correspondence`, `chess960`). */
  perf: string;
  /** The clock as written (`"3+2"`), null without one. */
  clock: string | null;
  /** What the game did to the listed player's rating (rated games). */
  rating_diff: number | null;
}

/** One page of GET /api/users/{username}/games. */
export interface GamePage {
  games: GameListItem[];
  page: number;
  more: boolean;
}

/** The logged-in account (GET /api/account) or a public profile (GET /api/users/{username}). */
export interface Account {
  username: string;
  created_at: string;
  /** A profile's rating per speed (GET /api/users/{name}); absent from the account and from older servers. */
  ratings?: Partial<Record<Speed, Rating & { games?: number }>>;
  /** The logged-in account's staff role (GET /api/session), when it has one. */
  role?: 'moderator' | 'admin';
  /** A profile closed by the moderators (GET /api/users/{name}). */
  closed?: boolean;
  /** A profile's rated games won, drawn and lost per speed played (GET /api/users/{name}). */
  results?: Partial<Record<Speed, { win: number; draw: number; loss: number }>>;
}

/** One row of GET /api/my-games. */
export interface GameSummary {
  id: string;
  level: Level | null;
  you: Color | null;
  /** Who sat opposite: the computer at its level, or the other player. */
  opponent: Seat;
  variant: Variant;
  status: Status;
  result: string;
  reason: string | null;
  plies: number;
  created_at: string;
  updated_at: string;
}

/** Body of POST /api/computer-games. */
export interface NewGameRequest {
  level: Level;
  color: Color | 'random';
  variant: Variant;
  position: number | null;
  rules: Rules;
  /** Start from this position (standard chess only); omitted for the usual start. */
  fen?: string;
  /** Play with this clock; omitted for none. */
  clock?: { minutes: number; increment: number };
}

/** An error answered by the server (or a network failure, code `network`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The error object's other fields, e.g. `reason` of weak_password. */
    readonly details: Record<string, unknown> = {},
    /** Seconds from the Retry-After header (rate_limited), if any. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
  }

  /** The `reason` detail, when it is a string. */
  get reason(): string | null {
    return typeof this.details.reason === 'string' ? this.details.reason : null;
  }
}

/** A server's answer: its status and headers, and its JSON body (null when empty or not JSON). */
export interface Answer {
  status: number;
  ok: boolean;
  statusText: string;
  headers: Headers;
  json: unknown;
}

/** Sends a request with the session cookie; an ApiError `network` when no answer came. */
export async function send(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<Answer> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      signal: signal ?? null,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, 'network', String(e));
  }
  let json: unknown = null;
  try {
    json = await res.json();
  } catch {
    // An empty or non-JSON body: the status says enough.
  }
  return { status: res.status, ok: res.ok, statusText: res.statusText, headers: res.headers, json };
}

/** The ApiError of a failed answer: the server's error code, message and details, and Retry-After. */
export function failure(a: Answer): ApiError {
  const raw = (a.json as { error?: unknown } | null)?.error;
  if (typeof raw === 'string') {
    // The Lichess-compatible API's `{"error":"…"}`: the status says what kind.
    const code = a.status === 401 ? 'not_logged_in' : a.status === 429 ? 'rate_limited' : 'lichess';
    const retry = Number(a.headers.get('retry-after') ?? '');
    return new ApiError(a.status, code, raw, {}, a.headers.has('retry-after') && Number.isFinite(retry) ? retry : null);
  }
  const err = raw as ({ code?: string; message?: string } & Record<string, unknown>) | undefined;
  const retry = Number(a.headers.get('retry-after') ?? '');
  return new ApiError(
    a.status,
    err?.code ?? 'internal',
    err?.message ?? (a.statusText || `HTTP ${a.status}`),
    err ?? {},
    a.headers.has('retry-after') && Number.isFinite(retry) ? retry : null,
  );
}

/** The JSON answer to a request (undefined for 204), or an ApiError. */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const a = await send(method, path, body);
  if (!a.ok) throw failure(a);
  if (a.status === 204) return undefined as T;
  return a.json as T;
}

/** Seeks a game by quick pairing: answers once paired (the request stays open until then); aborting `signal` cancels the seek. */
export async function seekGame(req: NewSeekRequest, signal: AbortSignal): Promise<Paired> {
  const a = await send('POST', '/api/seeks', req, signal);
  if (!a.ok) throw failure(a);
  return a.json as Paired;
}

/** Starts a game against the computer. */
export function createComputerGame(req: NewGameRequest): Promise<GameState> {
  return call<GameState>('POST', '/api/computer-games', req);
}

/** Loads a game's state. */
export function getGame(id: string): Promise<GameState> {
  return call<GameState>('GET', `/api/games/${encodeURIComponent(id)}`);
}

/** This browser's recent games, newest first. */
export function myGames(): Promise<GameSummary[]> {
  return call<GameSummary[]>('GET', '/api/my-games');
}

/** URL of a game's PGN download. */
export function pgnUrl(id: string): string {
  return `/api/games/${encodeURIComponent(id)}/pgn`;
}

/** Websocket URL of a game, resuming after version `v`. */
export function socketUrl(id: string, v: number, loc: Location = location): string {
  const proto = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${loc.host}/api/games/${encodeURIComponent(id)}/socket?v=${v}`;
}

/** The logged-in account, or null when anonymous (asked of /api/session, which answers 200 either way). */
export async function currentAccount(): Promise<Account | null> {
  const { account, role } = await call<{ account: Account | null; role?: 'moderator' | 'admin' }>('GET', '/api/session');
  return account && role ? { ...account, role } : account;
}

/** Creates an account and logs in (with an invitation code while sign-ups are by invitation). */
export function signup(username: string, password: string, invite = ''): Promise<{ username: string }> {
  return call('POST', '/api/account/signup', { username, password, ...(invite.trim() ? { invite: invite.trim() } : {}) });
}

/** Who may sign up. */
export type Signups = 'open' | 'invite' | 'closed';

/** The site's settings (`GET /api/site`). */
export interface SiteInfo {
  name: string;
  contact: string;
  signups: Signups;
}

/** The site's settings. */
export function siteInfo(): Promise<SiteInfo> {
  return call('GET', '/api/site');
}

/** Logs in. */
export function login(username: string, password: string): Promise<{ username: string }> {
  return call('POST', '/api/account/login', { username, password });
}

/** Logs out (the session ends on the server). */
export function logout(): Promise<void> {
  return call('POST', '/api/account/logout');
}

/** Changes the password; the account's other sessions end. */
export function changePassword(current: string, next: string): Promise<void> {
  return call('POST', '/api/account/password', { current, new: next });
}

/** Deletes the account (its games stay). */
export function deleteAccount(password: string): Promise<void> {
  return call('POST', '/api/account/delete', { password });
}

/** A player's public profile. */
export function getUser(username: string): Promise<Account> {
  return call('GET', `/api/users/${encodeURIComponent(username)}`);
}

/** A player's rating history, as lichess's `GET /api/user/{name}/rating-history`: per speed, `[year, month from 0, day, rating]`. */
export type RatingHistory = { name: string; points: [number, number, number, number][] }[];

/** A player's rating history. */
export function ratingHistory(username: string): Promise<RatingHistory> {
  return call('GET', `/api/user/${encodeURIComponent(username)}/rating-history`);
}

/** A run of games in lichess's perf statistics (`v` games or seconds). */
export interface PerfRun {
  v: number;
  from?: { at: string; gameId: string };
  to?: { at: string; gameId: string };
}

/** A notable win or loss in lichess's perf statistics. */
export interface PerfResult {
  opRating: number;
  opId: { id: string; name: string };
  at: string;
  gameId: string;
}

/** GET /api/user/{username}/perf/{perf}: lichess's `PerfStat`. */
export interface PerfStat {
  user: { name: string };
  perf: { glicko: { rating: number; deviation: number; provisional: boolean }; nb: number; progress: number };
  percentile: number;
  stat: {
    highest?: { int: number; at: string; gameId: string };
    lowest?: { int: number; at: string; gameId: string };
    bestWins: { results: PerfResult[] };
    worstLosses: { results: PerfResult[] };
    count: { all: number; rated: number; win: number; loss: number; draw: number; tour: number; berserk: number; opAvg: number; seconds: number };
    resultStreak: { win: { cur: PerfRun; max: PerfRun }; loss: { cur: PerfRun; max: PerfRun } };
    playStreak: { nb: { cur: PerfRun; max: PerfRun }; time: { cur: PerfRun; max: PerfRun } };
  };
}

/** A player's statistics at one speed. */
export function perfStat(username: string, speed: string): Promise<PerfStat> {
  return call('GET', `/api/user/${encodeURIComponent(username)}/perf/${encodeURIComponent(speed)}`);
}

/** Page `page` (from 1) of a player's games, newest first. */
export function userGames(username: string, query: string): Promise<GamePage> {
  return call('GET', `/api/users/${encodeURIComponent(username)}/games?${query}`);
}

/** Opens a table. */
export function openTable(req: NewTableRequest): Promise<Table> {
  return call('POST', '/api/tables', req);
}

/** A table by its code (any case). */
export function getTable(code: string): Promise<Table> {
  return call('GET', `/api/tables/${encodeURIComponent(code)}`);
}

/** Sits down at a table as its second player; the answer carries the game. */
export function joinTable(code: string): Promise<Table> {
  return call('POST', `/api/tables/${encodeURIComponent(code)}/join`);
}

/** Closes one's own open table. */
export function cancelTable(code: string): Promise<void> {
  return call('POST', `/api/tables/${encodeURIComponent(code)}/cancel`);
}

/** The open public tables, newest first. */
export async function getLobby(): Promise<Table[]> {
  return (await call<{ tables: Table[] }>('GET', '/api/lobby')).tables;
}

/** Websocket URL of the lobby. */
export function lobbySocketUrl(loc: Location = location): string {
  return `${loc.protocol === 'https:' ? 'wss:' : 'ws:'}//${loc.host}/api/lobby/socket`;
}

/** Path of a player's profile page. */
export function profilePath(username: string): string {
  return `/@/${encodeURIComponent(username)}`;
}

/** Scopes of API tokens, as lichess names them. */
export const SCOPES = [
  'preference:read',
  'challenge:read',
  'challenge:write',
  'board:play',
  'bot:play',
  'team:read',
  'team:write',
  'team:lead',
  'tournament:write',
  'puzzle:read',
  'puzzle:write',
  'follow:read',
  'follow:write',
  'msg:write',
] as const;
export type Scope = (typeof SCOPES)[number];

/** An API token as its owner sees it (never its secret). */
export interface ApiToken {
  id: string;
  scopes: string[];
  description: string;
  kind: 'personal' | 'oauth';
  client_id: string | null;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
}

/** A token just created, with its secret (shown once). */
export interface CreatedToken {
  id: string;
  token: string;
  scopes: string[];
  description: string;
  created_at: string;
}

/** The account's API tokens, newest first. */
export async function listTokens(): Promise<ApiToken[]> {
  return (await call<{ tokens: ApiToken[] }>('GET', '/api/account/tokens')).tokens;
}

/** Creates a personal API token. */
export function createToken(description: string, scopes: readonly string[]): Promise<CreatedToken> {
  return call('POST', '/api/account/tokens', { description, scopes });
}

/** Revokes one of the account's tokens. */
export function revokeToken(id: string): Promise<void> {
  return call('DELETE', `/api/account/tokens/${encodeURIComponent(id)}`);
}

/** An OAuth authorization request as the server checked it. */
export interface OAuthRequest {
  client_id: string;
  redirect_uri: string;
  redirect_origin: string;
  insecure: boolean;
  scopes: Scope[];
}

/** Checks the authorization request in `search` (the `/oauth` page's query). */
export function describeOAuth(search: string): Promise<OAuthRequest> {
  return call('GET', `/api/oauth/request${search}`);
}

/** Answers the authorization request in `search`; where to send the player. */
export async function approveOAuth(search: string, approve: boolean): Promise<string> {
  const params = Object.fromEntries(new URLSearchParams(search));
  return (await call<{ redirect: string }>('POST', '/api/oauth/approve', { ...params, approve })).redirect;
}

/** A player in a challenge (the Lichess-compatible API's `LightUser` with rating). */
export interface ChallengeUser {
  id: string;
  name: string;
  rating?: number;
  provisional?: boolean;
  title?: string;
  online?: boolean;
}

/** A challenge as the Lichess-compatible API shows it (the fields the web app reads; docs/api.md). */
export interface Challenge {
  id: string;
  url: string;
  /** `created` while waiting; then `accepted`, `declined`, `canceled` or `offline`. */
  status: 'created' | 'accepted' | 'declined' | 'canceled' | 'offline' | string;
  challenger: ChallengeUser;
  destUser: ChallengeUser | null;
  variant: { key: Variant | string; name: string };
  rated: boolean;
  speed: string;
  timeControl: { type: string; limit?: number; increment?: number; show?: string };
  color: Color | 'random' | string;
  finalColor?: Color | string;
  /** `in` (addressed to the viewer) or `out` (made by the viewer). */
  direction?: 'in' | 'out';
  /** Lichess's decline reason key (e.g. `later`), once declined. */
  declineReasonKey?: string;
}

/** Body of POST /api/challenge/{username}, with lichess's field names (seconds). */
export interface ChallengeRequest {
  'clock.limit': number;
  'clock.increment': number;
  rated: boolean;
  color: Color | 'random';
  variant: Variant;
}

/** Challenges `username`; the challenge, waiting. */
export function createChallenge(username: string, req: ChallengeRequest): Promise<Challenge> {
  return call('POST', `/api/challenge/${encodeURIComponent(username)}`, req);
}

/** The account's waiting challenges, received (`in`) and made (`out`); asking keeps one's own alive. */
export function listChallenges(): Promise<{ in: Challenge[]; out: Challenge[] }> {
  return call('GET', '/api/challenge');
}

/** One of the account's challenges, whatever its status. */
export function showChallenge(id: string): Promise<Challenge> {
  return call('GET', `/api/challenge/${encodeURIComponent(id)}/show`);
}

/** Accepts a challenge: its game (same id) starts. */
export async function acceptChallenge(id: string): Promise<void> {
  await call('POST', `/api/challenge/${encodeURIComponent(id)}/accept`);
}

/** Declines a challenge with one of lichess's reason keys. */
export async function declineChallenge(id: string, reason: string): Promise<void> {
  await call('POST', `/api/challenge/${encodeURIComponent(id)}/decline`, { reason });
}

/** Withdraws one's own challenge. */
export async function cancelChallenge(id: string): Promise<void> {
  await call('POST', `/api/challenge/${encodeURIComponent(id)}/cancel`);
}
