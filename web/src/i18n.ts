//! Translations: the four language tables (web/i18n/*.json, shared with the
//! server), language choice (saved choice, then the browser's languages) and
//! string lookup with `{name}` placeholders.
import en from '../i18n/en.json';
import fr from '../i18n/fr.json';
import ro from '../i18n/ro.json';
import ru from '../i18n/ru.json';

/** A translation key: every key of the English table. */
export type Key = keyof typeof en;
/** A complete translation table. */
export type Table = Record<Key, string>;

/** Supported interface languages, in the order shown in the switcher. */
export const LANGS = ['en', 'fr', 'ru', 'ro'] as const;
export type Lang = (typeof LANGS)[number];

/** The tables; typed as complete so a missing key is a compile error. */
export const TABLES: Record<Lang, Table> = { en, fr, ru, ro };

const STORAGE_KEY = 'plyyard.lang';

/** Is `s` one of our language codes? */
export function isLang(s: string): s is Lang {
  return (LANGS as readonly string[]).includes(s);
}

/** Picks a language: the saved choice, else the first supported browser language, else English. */
export function pickLang(saved: string | null, browser: readonly string[]): Lang {
  if (saved && isLang(saved)) return saved;
  for (const tag of browser) {
    const base = tag.toLowerCase().split('-')[0] ?? '';
    if (isLang(base)) return base;
    if (base === 'mo') return 'ro';
  }
  return 'en';
}

/** Fills `{name}` placeholders from `params`; unknown placeholders stay visible. */
export function format(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

let current: Lang = 'en';
const listeners: Array<(lang: Lang) => void> = [];

/** The current language. */
export function lang(): Lang {
  return current;
}

/** Translates `key` in the current language. */
export function t(key: Key, params?: Record<string, string | number>): string {
  // Keys built at run time (e.g. from a server reason code) may be unknown: show the key.
  const s: string | undefined = TABLES[current][key] ?? TABLES.en[key];
  return format(s ?? key, params);
}

/** Sets the language, remembers it, and notifies listeners. */
export function setLang(next: Lang): void {
  current = next;
  try {
    localStorage.setItem(STORAGE_KEY, next);
  } catch {
    // Storage may be disabled (private mode); the choice then lasts for the page only.
  }
  document.documentElement.lang = next;
  for (const f of listeners) f(next);
}

/** Calls `f` after every language change. */
export function onLangChange(f: (lang: Lang) => void): void {
  listeners.push(f);
}

/** Chooses the initial language from storage and `navigator.languages`. */
export function initLang(): Lang {
  let saved: string | null = null;
  try {
    saved = localStorage.getItem(STORAGE_KEY);
  } catch {
    saved = null;
  }
  current = pickLang(saved, navigator.languages?.length ? navigator.languages : [navigator.language]);
  document.documentElement.lang = current;
  return current;
}
