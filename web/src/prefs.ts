//! The player's preferences: board theme and piece set, sound, move and
//! resign confirmation, auto-queen, premoves, zen mode and coordinates.
//! An account's are the server's (`GET`/`POST /api/prefs`, copied here);
//! a browser without one keeps its own in local storage. Applied at once:
//! the theme and piece set on the document (`data-board`, `data-pieces`),
//! sound through `sound.ts`, the rest read by the game page.
import { call } from './api.js';
import { setSoundEnabled, soundEnabled } from './sound.js';

export interface Prefs {
  theme: 'brown' | 'blue' | 'green' | 'grey';
  pieceSet: 'cburnett' | 'noto' | 'dejavu';
  sound: boolean;
  confirmMove: 'never' | 'correspondence' | 'always';
  autoQueen: 'never' | 'premove' | 'always';
  premove: boolean;
  zen: boolean;
  confirmResign: boolean;
  coords: boolean;
}

/** The choices of each multiple-choice preference, in the order shown. */
export const PREF_CHOICES = {
  theme: ['brown', 'blue', 'green', 'grey'],
  pieceSet: ['cburnett', 'noto', 'dejavu'],
  confirmMove: ['never', 'correspondence', 'always'],
  autoQueen: ['never', 'premove', 'always'],
} as const;

/** The on/off preferences, in the order shown. */
export const PREF_FLAGS = ['sound', 'premove', 'confirmResign', 'coords', 'zen'] as const;

export const DEFAULT_PREFS: Prefs = {
  theme: 'brown',
  pieceSet: 'cburnett',
  sound: true,
  confirmMove: 'never',
  autoQueen: 'premove',
  premove: true,
  zen: false,
  confirmResign: true,
  coords: true,
};

const STORAGE_KEY = 'plyyard.prefs';

/** `raw` read as preferences: each valid value kept, the rest the default. */
export function prefsOf(raw: unknown): Prefs {
  const out: Prefs = { ...DEFAULT_PREFS };
  if (typeof raw !== 'object' || raw === null) return out;
  const r = raw as Record<string, unknown>;
  for (const [key, choices] of Object.entries(PREF_CHOICES)) {
    const v = r[key];
    if (typeof v === 'string' && (choices as readonly string[]).includes(v)) (out as unknown as Record<string, unknown>)[key] = v;
  }
  for (const key of PREF_FLAGS) {
    if (typeof r[key] === 'boolean') out[key] = r[key];
  }
  return out;
}

function stored(): Prefs {
  try {
    const p = prefsOf(JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null'));
    // The game page's sound button predates preferences: it keeps its say.
    return { ...p, sound: soundEnabled() };
  } catch {
    return { ...DEFAULT_PREFS, sound: soundEnabled() };
  }
}

let current: Prefs = stored();

/** The preferences now. */
export function prefs(): Prefs {
  return current;
}

function keep(p: Prefs): void {
  current = p;
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(p));
  } catch {
    // Not remembered when storage is unavailable.
  }
  setSoundEnabled(p.sound);
  applyPrefs(p);
}

/** Puts the theme and the piece set on the document. */
export function applyPrefs(p: Prefs = current): void {
  const root = document.documentElement;
  root.dataset.board = p.theme;
  root.dataset.pieces = p.pieceSet;
}

/** Loads a logged-in account's preferences from the server. */
export async function loadAccountPrefs(): Promise<Prefs> {
  keep(prefsOf(await call<unknown>('GET', '/api/prefs')));
  return current;
}

/** Changes waiting to be sent: one at a time, so that answers are kept in order. */
let queue: Promise<unknown> = Promise.resolve();

/** Changes some preferences: on the server for an account (which may refuse a value), else here. */
export function changePrefs(change: Partial<Prefs>, account: boolean): Promise<Prefs> {
  const run = async (): Promise<Prefs> => {
    if (account) keep(prefsOf(await call<unknown>('POST', '/api/prefs', change)));
    else keep({ ...current, ...change });
    return current;
  };
  const next = queue.then(run, run);
  queue = next.catch(() => undefined);
  return next;
}
