//! Learn progress: the keys of finished exercises (`ex:replay`,
//! `puzzle:ID`, `drill:ID`), kept in this browser's localStorage and sent to
//! the server, which keeps them per account or per anonymous player. On
//! first use the two copies are merged both ways, so progress made before
//! logging in joins the account. Puzzle keys (`puzzle:ID`, `puzzle-helped:ID`)
//! are the server's: it records them as it judges, so they are read from
//! it and never sent.
import { getProgress, postProgress } from './api.js';

/** localStorage key of the list. */
export const STORAGE_KEY = 'plyyard.learn.done';
/** At most this many keys are kept (the server bounds its lists too). */
export const MAX_KEYS = 1000;
/** At most this many keys per request (the server's limit). */
export const BATCH = 200;
const KEY_RE = /^[a-z0-9:-]{1,64}$/;

/** Is `k` a well-formed progress key? */
export function isProgressKey(k: unknown): k is string {
  return typeof k === 'string' && KEY_RE.test(k);
}

/** The union of `a` and `b`: well-formed keys only, sorted, without repeats, at most MAX_KEYS. */
export function mergeKeys(a: readonly unknown[], b: readonly unknown[]): string[] {
  return [...new Set([...a, ...b].filter(isProgressKey))].sort().slice(0, MAX_KEYS);
}

/** The keys stored in `storage` (an unreadable entry counts as none). */
export function readLocal(storage: Pick<Storage, 'getItem'> | null): string[] {
  try {
    const raw = storage?.getItem(STORAGE_KEY);
    const list: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(list) ? mergeKeys(list, []) : [];
  } catch {
    return [];
  }
}

function writeLocal(storage: Pick<Storage, 'setItem'> | null, keys: readonly string[]): void {
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify(keys));
  } catch {
    // Storage full or forbidden (private mode): the server copy still counts.
  }
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The index of the first puzzle not yet done (0 when all are). */
export function firstOpen(list: readonly { id: string }[], done: (key: string) => boolean): number {
  const i = list.findIndex((p) => !done(`puzzle:${p.id}`));
  return i < 0 ? 0 : i;
}

type Listener = (done: ReadonlySet<string>) => void;

let done = new Set<string>(readLocal(storage()));
let syncing: Promise<void> | null = null;
const listeners = new Set<Listener>();

function publish(keys: readonly string[]): void {
  done = new Set(keys);
  writeLocal(storage(), keys);
  for (const f of listeners) f(done);
}

/**
 * Merges this browser's list with the server's (each exercise asks when it
 * is mounted, so progress made before logging in reaches the account);
 * failures leave the local list.
 */
export function syncProgress(): Promise<void> {
  syncing ??= (async () => {
    const local = readLocal(storage());
    try {
      const server = await getProgress();
      // The server's word on puzzles stands; other keys are merged both ways.
      const merged = mergeKeys(local.filter((k) => !serverOwned(k)), server);
      publish(merged);
      const missing = merged.filter((k) => !server.includes(k) && !serverOwned(k));
      for (let i = 0; i < missing.length; i += BATCH) await postProgress(missing.slice(i, i + BATCH));
    } catch {
      // Offline or not available: local progress is still shown.
    } finally {
      syncing = null;
    }
  })();
  return syncing;
}

/** Is exercise `key` done? */
export function isDone(key: string): boolean {
  return done.has(key);
}

/** Whether only the server records `key` (puzzles, judged as they are played). */
export function serverOwned(key: string): boolean {
  return key.startsWith('puzzle:') || key.startsWith('puzzle-helped:');
}

/** Notes here a key the server has just recorded itself. */
export function noteDone(key: string): void {
  if (isProgressKey(key) && !done.has(key)) publish(mergeKeys([...done], [key]));
}

/** Records `key` as done, here and on the server. */
export async function markDone(key: string): Promise<void> {
  if (!isProgressKey(key) || serverOwned(key)) return;
  if (!done.has(key)) publish(mergeKeys([...done], [key]));
  try {
    await postProgress([key]);
  } catch {
    // Sent again by the next sync.
  }
}

/** Calls `f` whenever the list changes; answers the function that stops it. */
export function onProgress(f: Listener): () => void {
  listeners.add(f);
  return () => listeners.delete(f);
}
