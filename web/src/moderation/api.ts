//! The moderation API's calls and wire types (docs/api.md, "Moderation"):
//! reports, the queue, the log, a player's record, the actions and their
//! undo, roles, and the player's own warning.
import { call, type SiteInfo } from '../api.js';

export type ReportReason = 'cheat' | 'boost' | 'abuse' | 'other';
export const REPORT_REASONS: readonly ReportReason[] = ['cheat', 'boost', 'abuse', 'other'];
/** The translation key naming each reason (`other`'s cannot end in `.other`, the plural suffix). */
export const REASON_KEYS = { cheat: 'report.cheat', boost: 'report.boost', abuse: 'report.abuse', other: 'report.otherReason' } as const;
export type ModAction = 'mute' | 'warn' | 'close' | 'engine';
export const MOD_ACTIONS: readonly ModAction[] = ['mute', 'warn', 'close', 'engine'];
export type StaffRole = 'moderator' | 'admin';

/** A player's report as moderators see it. */
export interface Report {
  id: string;
  reporter: string;
  reason: ReportReason | string;
  text: string;
  created_at: string;
  closed_at?: string;
  closed_by?: string;
  outcome?: string;
}

/** What a reported player said and played lately. */
export interface Evidence {
  chat: { at: string; room: string; text: string; date: string; shadow: boolean }[];
  games: { id: string; status: string; result: string; plies: number; date: string }[];
  /** Rated games against accounts seen on one of the player's addresses (`opponent` null: deleted). */
  sharedAddress: { game: string; opponent: string | null; date: string }[];
  /** The fair-play verdicts on the player's rated games. */
  fairPlay: FairPlay;
}

/** A fair-play verdict on one side of a game, mildest first. */
export type Verdict = 'notCheating' | 'unlikelyCheating' | 'unclear' | 'likelyCheating' | 'cheating';
/** A signal of engine use. */
export type Signal = 'lowLoss' | 'alwaysAhead' | 'highBlurs' | 'moderateBlurs' | 'flatTimes' | 'steadyTimes' | 'noFastMoves';

/** An account's fair play (`fairPlay`, docs/moderation.md). */
export interface FairPlay {
  flagged: boolean;
  ratedGames: number;
  assessed: number;
  cheating: number;
  likelyCheating: number;
  games: { id: string; color: string; speed: string | null; verdict: Verdict | null; signals: Signal[]; acpl: number | null; won: boolean; ratedAt: number }[];
}

/** The open reports about one player. */
export interface ReportGroup {
  username: string;
  marks: string[];
  reports: Report[];
  evidence: Evidence;
}

/** An entry of the moderation log. */
export interface LogEntry {
  id: string;
  at: string;
  moderator: string | null;
  action: string;
  target: string | null;
  details: string;
}

/** A player's moderation record. */
export interface ModRecord {
  username: string;
  roles: StaffRole[];
  marks: { mark: string; moderator: string | null; reason: string; at: string }[];
  reports: Report[];
  notes: LogEntry[];
  evidence: Evidence;
}

/** A warning from the moderators. */
export interface Warning {
  id: string;
  text: string;
  at: string;
}

export function report(username: string, reason: ReportReason, text: string): Promise<{ id: string }> {
  return call('POST', '/api/report', { username, reason, text });
}

export async function queue(): Promise<ReportGroup[]> {
  return (await call<{ players: ReportGroup[] }>('GET', '/api/mod/reports')).players;
}

export function closeReports(username: string, action: ModAction | 'none', reason: string): Promise<{ closed: number }> {
  return call('POST', `/api/mod/reports/${encodeURIComponent(username)}/close`, { action, reason });
}

export async function modLog(before?: number): Promise<LogEntry[]> {
  const q = before === undefined ? '' : `?before=${before}`;
  return (await call<{ entries: LogEntry[] }>('GET', `/api/mod/log${q}`)).entries;
}

export function staff(): Promise<{ you: StaffRole; staff: { username: string; role: StaffRole }[] }> {
  return call('GET', '/api/mod/staff');
}

export function setRole(username: string, role: StaffRole | 'none'): Promise<void> {
  return call('POST', `/api/mod/user/${encodeURIComponent(username)}/role`, { role });
}

export function modRecord(username: string): Promise<ModRecord> {
  return call('GET', `/api/mod/user/${encodeURIComponent(username)}`);
}

/** Takes `action` on `username` (`lift`: its undo). */
export function act(username: string, action: ModAction, reason: string, lift = false): Promise<void> {
  return call(lift ? 'DELETE' : 'POST', `/api/mod/user/${encodeURIComponent(username)}/${action}`, { reason });
}

export async function myWarning(): Promise<Warning | null> {
  return (await call<{ warning: Warning | null }>('GET', '/api/account/warning')).warning;
}

export function readWarning(id: string): Promise<void> {
  return call('POST', `/api/account/warning/${encodeURIComponent(id)}/read`);
}

/** An invitation, as admins see it. */
export interface Invite {
  code: string;
  by: string | null;
  at: string;
  used_by: string | null;
}

/** The site's settings and the latest invitations (admins). */
export interface SiteAdmin {
  settings: SiteInfo;
  invites: Invite[];
}

/** GET /api/mod/site. */
export function siteAdmin(): Promise<SiteAdmin> {
  return call('GET', '/api/mod/site');
}

/** POST /api/mod/site. */
export function saveSite(s: SiteInfo): Promise<SiteAdmin> {
  return call('POST', '/api/mod/site', s);
}

/** POST /api/mod/invites: a new invitation. */
export function newInvite(): Promise<{ code: string; path: string }> {
  return call('POST', '/api/mod/invites');
}
