//! Translation tables: same keys everywhere (plural variants as each
//! language needs), placeholders kept, plural forms, the page language and
//! its cookie, tables loaded on demand.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { join, sep } from 'node:path';
import { format, lang, langCookie, LANGS, loadTable, pageLang, pluralCategories, t, tp, useLang } from '../../src/i18n.js';

// The compiled test runs from web/.test-build; tests/run.mjs says where web/ is.
const dir = join(process.env.PLYYARD_WEB ?? process.cwd(), 'i18n') + sep;

function load(lang: string): Record<string, string> {
  return JSON.parse(readFileSync(`${dir}${lang}.json`, 'utf8')) as Record<string, string>;
}

test('the i18n folder has exactly the four languages', () => {
  assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.json')).sort(), ['en.json', 'fr.json', 'ro.json', 'ru.json']);
  assert.deepEqual([...LANGS].sort(), ['en', 'fr', 'ro', 'ru']);
});

const PLURAL = /\.(zero|one|two|few|many|other)$/;

/** The keys of a table, plural variants counted once under their base. */
function baseKeys(table: Record<string, string>): string[] {
  return [...new Set(Object.keys(table).map((k) => (PLURAL.test(k) ? `${k.replace(PLURAL, '')}#plural` : k)))].sort();
}

test('all four files have the same keys (plural keys as bases) and no empty strings', () => {
  const en = baseKeys(load('en'));
  for (const lang of LANGS) {
    const table = load(lang);
    assert.deepEqual(baseKeys(table), en, `${lang} keys differ from en`);
    for (const [k, v] of Object.entries(table)) {
      assert.equal(typeof v, 'string', `${lang}:${k}`);
      assert.ok(v.trim().length > 0, `${lang}:${k} is empty`);
    }
  }
});

test('every plural key has exactly the categories Intl.PluralRules gives for the language', () => {
  const bases = Object.keys(load('en'))
    .filter((k) => k.endsWith('.other'))
    .map((k) => k.replace(PLURAL, ''));
  assert.ok(bases.includes('home.recent.moves'), bases.join(', '));
  for (const lang of LANGS) {
    const table = load(lang);
    const wanted = pluralCategories(lang);
    assert.ok(wanted.includes('other'), lang);
    for (const base of bases) {
      const have = Object.keys(table)
        .filter((k) => k.startsWith(`${base}.`) && PLURAL.test(k))
        .map((k) => k.slice(base.length + 1))
        .sort();
      assert.deepEqual(have, wanted, `${lang}:${base}`);
    }
  }
  // The languages really differ: Russian needs few and many, Romanian few.
  assert.deepEqual(pluralCategories('en'), ['one', 'other']);
  assert.ok(pluralCategories('ru').includes('few') && pluralCategories('ru').includes('many'));
  assert.ok(pluralCategories('ro').includes('few'));
});

test('placeholders are the same in every language', () => {
  const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  const en = load('en');
  const other = (k: string) => (PLURAL.test(k) ? `${k.replace(PLURAL, '')}.other` : k);
  for (const lang of LANGS) {
    const table = load(lang);
    for (const k of Object.keys(table)) assert.deepEqual(names(table[k]!), names(en[other(k)]!), `${lang}:${k}`);
  }
});

test('tp picks the plural form of the language', async () => {
  await useLang('en');
  assert.equal(tp('home.recent.moves', 1), '1 move');
  assert.equal(tp('home.recent.moves', 0), '0 moves');
  assert.equal(tp('home.recent.moves', 2), '2 moves');
  await useLang('ru');
  assert.deepEqual(
    [1, 2, 5, 11, 21, 22, 25].map((n) => tp('home.recent.moves', n)),
    ['1 ход', '2 хода', '5 ходов', '11 ходов', '21 ход', '22 хода', '25 ходов'],
  );
  await useLang('ro');
  assert.deepEqual([1, 2, 19, 20, 101, 120].map((n) => tp('home.recent.moves', n)), ['1 mutare', '2 mutări', '19 mutări', '20 de mutări', '101 mutări', '120 de mutări']);
  await useLang('fr');
  assert.deepEqual([0, 1, 2].map((n) => tp('home.recent.moves', n)), ['0 coup', '1 coup', '2 coups']);
  assert.equal(tp('account.error.rate_limited', 30), 'Trop de tentatives. Réessayez dans 30 secondes.');
  await useLang('en');
});

test('tables load on demand, each equal to its file, and switching changes the texts', async () => {
  for (const l of LANGS) assert.deepEqual(await loadTable(l), load(l), l);
  await useLang('fr');
  assert.equal(lang(), 'fr');
  assert.equal(t('home.newGame'), 'Nouvelle partie');
  // Two switches in a row: the last one wins even if the first finishes later.
  await Promise.all([useLang('ru'), useLang('ro')]);
  assert.equal(lang(), 'ro');
  await useLang('en');
  assert.equal(t('home.newGame'), 'New game');
});

test('translations are really translated (not English copies) for whole sentences', () => {
  const en = load('en');
  // Proper names and strings that are spelt the same in a language.
  const allowed = new Set(['site.name', 'fr:game.variant.chess960', 'ru:game.position.side', 'ro:game.position.side', 'fr:profile.page', 'fr:table.title', 'fr:perf.duration', 'ro:perf.duration']);
  for (const lang of ['fr', 'ru', 'ro'] as const) {
    const table = load(lang);
    const same = Object.keys(en).filter(
      (k) => table[k] === en[k] && en[k]!.includes(' ') && !allowed.has(k) && !allowed.has(`${lang}:${k}`),
    );
    assert.deepEqual(same, [], `${lang} copies English for ${same.join(', ')}`);
  }
});

test('piece letters are the localised ones', () => {
  const letters = (l: (typeof LANGS)[number]) =>
    ['king', 'queen', 'rook', 'bishop', 'knight'].map((p) => load(l)[`notation.${p}`]).join(' ');
  assert.equal(letters('en'), 'K Q R B N');
  assert.equal(letters('fr'), 'R D T F C');
  assert.equal(letters('ru'), 'Кр Ф Л С К');
  assert.equal(letters('ro'), 'R D T N C');
});

test('the app takes the language the server wrote into <html lang>', () => {
  assert.equal(pageLang('ru'), 'ru');
  assert.equal(pageLang('fr-CA'), 'fr');
  assert.equal(pageLang('RO'), 'ro');
  // Anything else (the server only writes ours) falls back to English.
  assert.equal(pageLang('de'), 'en');
  assert.equal(pageLang(''), 'en');
});

test('switching language sets the cookie the server reads', () => {
  assert.equal(langCookie('fr'), 'plyyard_lang=fr; Path=/; Max-Age=31536000; SameSite=Lax');
});

test('format fills placeholders and leaves unknown ones', () => {
  assert.equal(format('{a} and {b}', { a: 1, b: 'x' }), '1 and x');
  assert.equal(format('{a} {c}', { a: 'y' }), 'y {c}');
});

test('every key is used by the app (directly, or under a prefix filled in at run time)', () => {
  const srcDir = join(process.env.PLYYARD_WEB ?? process.cwd(), 'src');
  const source = (readdirSync(srcDir, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts'))
    .map((f) => readFileSync(join(srcDir, f), 'utf8'))
    .join('\n');
  // Keys built from server codes or choices, e.g. `reason.${code}`.
  const dynamic = ['level.', 'color.', 'search.', 'tv.channel.', 'prefs.',  'reason.', 'error.', 'piece.', 'rules.', 'variant.', 'game.claim.', 'notation.', 'account.error.', 'speed.', 'tokens.scope.', 'mod.nav.', 'mod.role.', 'mod.action.', 'mod.mark.', 'mod.take.', 'mod.lift.', 'mod.fair.verdict.', 'mod.fair.signal.', 'mod.site.signups.'];
  // Read by the server (docs/protocol.md: index.html's <noscript>; the Learn pages it renders).
  const server = [
    'app.noscript',
    ...['rules', 'notation', 'strategy', 'tactics', 'example', 'faq', 'exercises'].map((s) => `learn.section.${s}`),
    'learn.board_label',
    'learn.exercise_nojs',
  ];
  // Review explanations: words the server makes for the site and `plyyard review` (crates/server/src/review/text.rs checks its templates exist).
  const serverPrefixes = ['explain.'];
  const unused = Object.keys(load('en'))
    .map((k) => (k.endsWith('.other') ? k.replace(PLURAL, '') : k))
    .filter((k) => !PLURAL.test(k) || k.startsWith('account.error.'))
    .filter((k) => !source.includes(`'${k}'`) && !dynamic.some((p) => k.startsWith(p) && source.includes(`\`${p}\${`)) && !server.includes(k) && !serverPrefixes.some((p) => k.startsWith(p)));
  assert.deepEqual(unused, []);
});
