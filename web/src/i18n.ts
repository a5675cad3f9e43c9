//! Translations: the four language tables (web/i18n/*.json, shared with the
//! server), loaded on demand, string lookup with `{name}` placeholders, and
//! plural forms chosen by `Intl.PluralRules`.
//!
//! The server decides the page language (the `plyyard_lang` cookie, else
//! Accept-Language) and writes it into `<html lang>`; the app starts in that
//! language and only loads that language's table. Switching language loads
//! the new table, then sets the cookie so the server's next page agrees.
//! Tables are complete (a unit test checks it), so there is no English
//! fallback: a French visitor never downloads the English table.

import type { Letters } from './notation.js';

/** A translation key: every key of the English table. */
export type Key = keyof typeof import('../i18n/en.json') & string;

/** The plural categories `Intl.PluralRules` may answer. */
export type PluralCategory = Intl.LDMLPluralRule;

/** A key with plural variants (`base.one`, `base.other`, …), named by its base. */
export type PluralKey = Key extends infer K ? (K extends `${infer B}.other` ? B : never) : never;

/** A loaded translation table (key → text). */
export type Table = Readonly<Record<string, string>>;

/** Supported interface languages, in the order shown in the switcher. */
export const LANGS = ['en', 'fr', 'ru', 'ro'] as const;
export type Lang = (typeof LANGS)[number];

/** Each language's name in itself, for the switcher (shown before its table is loaded). */
export const LANG_NAMES: Record<Lang, string> = { en: 'English', fr: 'Français', ru: 'Русский', ro: 'Română' };

/** Name of the cookie the server reads to choose the page language. */
export const LANG_COOKIE = 'plyyard_lang';

/** The tables, each a separate chunk that esbuild emits and loads on first use. */
const LOADERS: Record<Lang, () => Promise<{ default: Table }>> = {
  en: () => import('../i18n/en.json'),
  fr: () => import('../i18n/fr.json'),
  ru: () => import('../i18n/ru.json'),
  ro: () => import('../i18n/ro.json'),
};

/** Is `s` one of our language codes? */
export function isLang(s: string): s is Lang {
  return (LANGS as readonly string[]).includes(s);
}

/** The language the server wrote into `<html lang>` (its primary subtag); English if it is not one of ours. */
export function pageLang(htmlLang: string): Lang {
  const base = htmlLang.trim().toLowerCase().split('-')[0] ?? '';
  return isLang(base) ? base : 'en';
}

/** The `document.cookie` assignment that remembers `lang` for a year, for the whole site. */
export function langCookie(lang: Lang): string {
  return `${LANG_COOKIE}=${lang}; Path=/; Max-Age=31536000; SameSite=Lax`;
}

/** Fills `{name}` placeholders from `params`; unknown placeholders stay visible. */
export function format(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

const loaded = new Map<Lang, Table>();
let current: Lang = 'en';
let table: Table = {};
let rules = new Intl.PluralRules('en');
let numbers = new Intl.NumberFormat('en');
let switches = 0;

/** Loads (once) the table of `lang`. */
export async function loadTable(lang: Lang): Promise<Table> {
  let t = loaded.get(lang);
  if (!t) {
    t = (await LOADERS[lang]()).default;
    loaded.set(lang, t);
  }
  return t;
}

/** Loads the table of `lang` and makes it the current language (no cookie, no DOM); false if a later switch overtook it. */
export async function useLang(lang: Lang): Promise<boolean> {
  const mine = ++switches;
  const t = await loadTable(lang);
  // A later switch finished first or is still loading: it wins.
  if (mine !== switches) return false;
  current = lang;
  table = t;
  rules = new Intl.PluralRules(lang);
  numbers = new Intl.NumberFormat(lang);
  return true;
}

/** The current language. */
export function lang(): Lang {
  return current;
}

/** The name the site's admins gave it, in place of `site.name` in every language (null: the default). */
let siteName: string | null = null;

/** Names the site (what `GET /api/site` says). */
export function setSiteName(name: string | null): void {
  siteName = name;
}

/** Translates `key` in the current language. */
export function t(key: Key, params?: Record<string, string | number>): string {
  // Keys built at run time (e.g. from a server reason code) may be unknown: show the key.
  if (key === 'site.name' && siteName) return siteName;
  return format(table[key] ?? key, params);
}

/** Is `key` in the current table? For keys built from server codes. */
export function has(key: string): key is Key {
  return key in table;
}

/** The text of `base` for `count` in the current language's plural form; `{count}` is the number formatted for the language. */
export function tp(base: PluralKey, count: number, params: Record<string, string | number> = {}): string {
  const s = table[`${base}.${rules.select(count)}`] ?? table[`${base}.other`] ?? base;
  return format(s, { ...params, count: numbers.format(count) });
}

/** The plural categories a table of `lang` must give for every plural key. */
export function pluralCategories(lang: Lang): PluralCategory[] {
  return [...new Intl.PluralRules(lang).resolvedOptions().pluralCategories].sort();
}

/** Starts the app in the page's language (`<html lang>`, chosen by the server). */
export async function initLang(doc: Document = document): Promise<Lang> {
  const l = pageLang(doc.documentElement.lang);
  await useLang(l);
  doc.documentElement.lang = l;
  return l;
}

/** Switches to `next`: loads its table, then remembers it in the cookie the server reads. */
export async function setLang(next: Lang, doc: Document = document): Promise<void> {
  if (!(await useLang(next))) return;
  doc.cookie = langCookie(next);
  doc.documentElement.lang = next;
}

/** The current language's piece letters. */
export function currentLetters(): Letters {
  return {
    king: t('notation.king'),
    queen: t('notation.queen'),
    rook: t('notation.rook'),
    bishop: t('notation.bishop'),
    knight: t('notation.knight'),
  };
}
