//! Which page a URL shows (pure: no DOM, no page modules).
import { type GameSearch, searchOf } from './game-search.js';

/** A TV channel's key. */
export type TvChannel = 'best' | 'bullet' | 'blitz' | 'rapid' | 'classical' | 'chess960' | 'bot' | 'computer';

/** The page number in a `?page=N` query (1 when absent or not a positive whole number). */
export function pageParam(search: string): number {
  const n = Number(new URLSearchParams(search).get('page') ?? '1');
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/** Which page a path shows. */
export type Route =
  | { page: 'home' }
  | { page: 'game'; id: string }
  | { page: 'signup' }
  | { page: 'login' }
  | { page: 'account' }
  | { page: 'prefs' }
  | { page: 'profile'; username: string; n: number; search: GameSearch }
  | { page: 'perf'; username: string; speed: string }
  | { page: 'tv'; channel: TvChannel }
  | { page: 'multiplayer' }
  | { page: 'table'; code: string }
  /** The review of a finished game. */
  | { page: 'review'; id: string }
  /** The analysis board (its position comes from the query or `/analysis/{id}/{ply}`). */
  | { page: 'analysis' }
  /** Importing games from PGN. */
  | { page: 'import' }
  /** The puzzle trainer: a theme or opening, `mix`, or `daily` for the puzzle of the day. */
  | { page: 'training'; angle: string }
  /** Puzzle themes, the puzzle dashboard, Puzzle Streak, Puzzle Storm. */
  | { page: 'puzzleThemes' }
  | { page: 'puzzleDashboard' }
  | { page: 'streak' }
  | { page: 'storm' }
  /** The account's API tokens (and the prefilled creation form). */
  | { page: 'tokens' }
  /** An app asks for access (OAuth). */
  | { page: 'oauth' }
  /** A Learn page; `slug` null for the index. */
  | { page: 'learn'; slug: string | null }
  /** The clubs: every club, the largest first, or those whose name holds `text`; page `n`. */
  | { page: 'clubs'; n: number; text: string }
  /** The form that creates a club. */
  | { page: 'clubNew' }
  /** One club's page. */
  | { page: 'club'; id: string }
  /** A Swiss tournament's page. */
  | { page: 'swiss'; id: string }
  /** The Arena tournaments: about to start, being played, finished. */
  | { page: 'arenas' }
  /** The form that creates an Arena. */
  | { page: 'arenaNew' }
  /** One Arena's page. */
  | { page: 'arena'; id: string }
  /** The inbox: the conversations, and the one with `username` when given. */
  | { page: 'inbox'; username: string | null }
  /** The moderators' pages: the reports queue, the log, the roles, one player. */
  | { page: 'modQueue' }
  | { page: 'modLog' }
  | { page: 'modRoles' }
  | { page: 'modUser'; username: string };

/** The route of a location (unknown paths show the home page). */
export function route(pathname: string, search = ''): Route {
  let m = /^\/game\/([^/]+)\/?$/.exec(pathname);
  if (m) return { page: 'game', id: decodeURIComponent(m[1]!) };
  m = /^\/game\/([^/]+)\/review\/?$/.exec(pathname);
  if (m) return { page: 'review', id: decodeURIComponent(m[1]!) };
  if (/^\/analysis(?:\/[^/]+\/\d+)?\/?$/.test(pathname)) return { page: 'analysis' };
  if (/^\/import\/?$/.test(pathname)) return { page: 'import' };
  if (/^\/training\/themes\/?$/.test(pathname)) return { page: 'puzzleThemes' };
  if (/^\/training\/dashboard\/?$/.test(pathname)) return { page: 'puzzleDashboard' };
  m = /^\/training(?:\/([^/]+))?\/?$/.exec(pathname);
  if (m) return { page: 'training', angle: m[1] === undefined ? 'mix' : decodeURIComponent(m[1]) };
  if (/^\/streak\/?$/.test(pathname)) return { page: 'streak' };
  if (/^\/storm\/?$/.test(pathname)) return { page: 'storm' };
  m = /^\/tv(?:\/(best|bullet|blitz|rapid|classical|chess960|bot|computer))?\/?$/.exec(pathname);
  if (m) return { page: 'tv', channel: (m[1] ?? 'best') as TvChannel };
  m = /^\/@\/([^/]+)\/perf\/(bullet|blitz|rapid|classical)\/?$/.exec(pathname);
  if (m) return { page: 'perf', username: decodeURIComponent(m[1]!), speed: m[2]! };
  m = /^\/@\/([^/]+)\/?$/.exec(pathname);
  if (m) return { page: 'profile', username: decodeURIComponent(m[1]!), n: pageParam(search), search: searchOf(search) };
  m = /^\/t\/([^/]+)\/?$/.exec(pathname);
  if (m) return { page: 'table', code: decodeURIComponent(m[1]!) };
  m = /^\/learn(?:\/([^/]+))?\/?$/.exec(pathname);
  if (m) return { page: 'learn', slug: m[1] === undefined ? null : decodeURIComponent(m[1]) };
  if (/^\/team\/?$/.test(pathname)) return { page: 'clubs', n: pageParam(search), text: (new URLSearchParams(search).get('text') ?? '').trim() };
  if (/^\/team\/new\/?$/.test(pathname)) return { page: 'clubNew' };
  m = /^\/team\/([^/]+)\/?$/.exec(pathname);
  if (m) return { page: 'club', id: decodeURIComponent(m[1]!) };
  m = /^\/swiss\/([^/.]+)\/?$/.exec(pathname);
  if (m) return { page: 'swiss', id: decodeURIComponent(m[1]!) };
  if (/^\/tournament\/?$/.test(pathname)) return { page: 'arenas' };
  m = /^\/inbox(?:\/([^/]+))?\/?$/.exec(pathname);
  if (m) return { page: 'inbox', username: m[1] === undefined ? null : decodeURIComponent(m[1]) };
  if (/^\/tournament\/new\/?$/.test(pathname)) return { page: 'arenaNew' };
  m = /^\/tournament\/([^/]+)\/?$/.exec(pathname);
  if (m) return { page: 'arena', id: decodeURIComponent(m[1]!) };
  if (/^\/mod\/?$/.test(pathname)) return { page: 'modQueue' };
  if (/^\/mod\/log\/?$/.test(pathname)) return { page: 'modLog' };
  if (/^\/mod\/roles\/?$/.test(pathname)) return { page: 'modRoles' };
  m = /^\/mod\/user\/([^/]+)\/?$/.exec(pathname);
  if (m) return { page: 'modUser', username: decodeURIComponent(m[1]!) };
  if (/^\/multiplayer\/?$/.test(pathname)) return { page: 'multiplayer' };
  if (/^\/signup\/?$/.test(pathname)) return { page: 'signup' };
  if (/^\/login\/?$/.test(pathname)) return { page: 'login' };
  if (/^\/account\/?$/.test(pathname)) return { page: 'account' };
  if (/^\/account\/preferences\/?$/.test(pathname)) return { page: 'prefs' };
  if (/^\/account\/oauth\/token(?:\/create)?\/?$/.test(pathname)) return { page: 'tokens' };
  if (/^\/oauth\/?$/.test(pathname)) return { page: 'oauth' };
  return { page: 'home' };
}

/** The page to open after logging in: the `?next=` path when it is one of ours (never another site), else the home page. */
export function nextPath(search: string): string {
  const next = new URLSearchParams(search).get('next') ?? '';
  return /^\/(?![/\\])/.test(next) && !next.startsWith('/api/') ? next : '/';
}

/** A link to the log-in or sign-up page that comes back to `path` afterwards. */
export function authPath(page: 'login' | 'signup', path: string): string {
  return `/${page}?next=${encodeURIComponent(path)}`;
}

/** Path of a Swiss tournament's page. */
export function swissPath(id: string): string {
  return `/swiss/${encodeURIComponent(id)}`;
}

/** Path of a club's page. */
export function clubPath(id: string): string {
  return `/team/${encodeURIComponent(id)}`;
}

/** Path of the clubs list: page `n` of every club, or of those whose name holds `text`. */
export function clubsPath(text: string, n = 1): string {
  const q = new URLSearchParams();
  if (text.trim() !== '') q.set('text', text.trim());
  if (n > 1) q.set('page', String(n));
  const query = q.toString();
  return query ? `/team?${query}` : '/team';
}
