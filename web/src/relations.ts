//! Follows and blocks on the client: the calls (lichess's
//! `POST /api/rel/{follow,unfollow,block,unblock}/{username}` with the
//! session, and our own lists), and a relation failure as a sentence.
import { ApiError, call } from './api.js';
import { t } from './i18n.js';

/** A player in a relations list. */
export interface RelatedUser {
  name: string;
  online: boolean;
}

/** What the viewer holds about a profile's player. */
export interface YourRelation {
  following: boolean;
  blocking: boolean;
}

/** GET /api/users/{name}/relations. */
export interface Relations {
  following: RelatedUser[];
  followers: RelatedUser[];
  nb_following: number;
  nb_followers: number;
  /** Null for a visitor, and on one's own profile. */
  you: YourRelation | null;
}

/** A change of relation, as lichess's path names it. */
export type RelChange = 'follow' | 'unfollow' | 'block' | 'unblock';

/** A player's follows and followers, and the viewer's relation to them. */
export function getRelations(username: string): Promise<Relations> {
  return call('GET', `/api/users/${encodeURIComponent(username)}/relations`);
}

/** Follows, unfollows, blocks or unblocks a player. */
export async function changeRelation(change: RelChange, username: string): Promise<void> {
  await call('POST', `/api/rel/${change}/${encodeURIComponent(username)}`);
}

/** The players the logged-in account follows who are online now. */
export function onlineFriends(): Promise<{ online: RelatedUser[] }> {
  return call('GET', '/api/friends/online');
}

/** The sentence for a failed change of relation. */
export function relationErrorText(e: unknown): string {
  if (!(e instanceof ApiError)) return t('error.generic');
  if (e.code === 'network') return t('error.network');
  if (e.status === 401) return t('error.not_logged_in');
  if (e.status === 403) return t('rel.error.blocked');
  if (e.status === 404) return t('rel.error.noUser');
  if (e.status === 429) return t('rel.error.tooMany');
  return t('error.generic');
}
