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
}

/** One row of GET /api/my-games. */
export interface GameSummary {
  id: string;
  level: Level | null;
  you: Color | null;
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
}

/** An error answered by the server (or a network failure, code `network`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, 'network', String(e));
  }
  if (!res.ok) {
    let code = 'internal';
    let message = res.statusText;
    try {
      const j = (await res.json()) as { error?: { code?: string; message?: string } };
      code = j.error?.code ?? code;
      message = j.error?.message ?? message;
    } catch {
      // Non-JSON error body: keep the status text.
    }
    throw new ApiError(res.status, code, message);
  }
  return (await res.json()) as T;
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
