//! Translation tables: same keys everywhere, placeholders kept, language choice.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { join, sep } from 'node:path';
import { format, LANGS, pickLang, TABLES } from '../../src/i18n.js';

// The compiled test runs from web/.test-build; tests/run.mjs says where web/ is.
const dir = join(process.env.PLYYARD_WEB ?? process.cwd(), 'i18n') + sep;

function load(lang: string): Record<string, string> {
  return JSON.parse(readFileSync(`${dir}${lang}.json`, 'utf8')) as Record<string, string>;
}

test('the i18n folder has exactly the four languages', () => {
  assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.json')).sort(), ['en.json', 'fr.json', 'ro.json', 'ru.json']);
  assert.deepEqual([...LANGS].sort(), ['en', 'fr', 'ro', 'ru']);
});

test('all four files have the same keys and no empty strings', () => {
  const en = Object.keys(load('en')).sort();
  for (const lang of LANGS) {
    const table = load(lang);
    assert.deepEqual(Object.keys(table).sort(), en, `${lang} keys differ from en`);
    for (const [k, v] of Object.entries(table)) {
      assert.equal(typeof v, 'string', `${lang}:${k}`);
      assert.ok(v.trim().length > 0, `${lang}:${k} is empty`);
    }
  }
});

test('placeholders are the same in every language', () => {
  const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  const en = load('en');
  for (const lang of LANGS) {
    const table = load(lang);
    for (const k of Object.keys(en)) assert.deepEqual(names(table[k]!), names(en[k]!), `${lang}:${k}`);
  }
});

test('translations are really translated (not English copies) for whole sentences', () => {
  const en = load('en');
  // Proper names and strings that are spelt the same in a language.
  const allowed = new Set(['site.name', 'fr:game.variant.chess960', 'ru:game.position.side', 'ro:game.position.side']);
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
    ['king', 'queen', 'rook', 'bishop', 'knight'].map((p) => TABLES[l][`notation.${p}` as 'notation.king']).join(' ');
  assert.equal(letters('en'), 'K Q R B N');
  assert.equal(letters('fr'), 'R D T F C');
  assert.equal(letters('ru'), 'Кр Ф Л С К');
  assert.equal(letters('ro'), 'R D T N C');
});

test('pickLang prefers the saved choice, then the browser languages', () => {
  assert.equal(pickLang('ru', ['fr-FR']), 'ru');
  assert.equal(pickLang(null, ['de-DE', 'fr-CA', 'en']), 'fr');
  assert.equal(pickLang('xx', ['ro-RO']), 'ro');
  assert.equal(pickLang(null, ['ro-MD']), 'ro');
  assert.equal(pickLang(null, ['RU']), 'ru');
  assert.equal(pickLang(null, ['de', 'ja']), 'en');
  assert.equal(pickLang(null, []), 'en');
});

test('format fills placeholders and leaves unknown ones', () => {
  assert.equal(format('{a} and {b}', { a: 1, b: 'x' }), '1 and x');
  assert.equal(format('{a} {c}', { a: 'y' }), 'y {c}');
});

test('every key is used by the app (directly, or under a prefix filled in at run time)', () => {
  const srcDir = join(process.env.PLYYARD_WEB ?? process.cwd(), 'src');
  const source = readdirSync(srcDir)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => readFileSync(join(srcDir, f), 'utf8'))
    .join('\n');
  // Keys built from server codes or choices, e.g. `reason.${code}`.
  const dynamic = ['level.', 'color.', 'reason.', 'error.', 'piece.', 'rules.', 'variant.', 'game.claim.', 'notation.'];
  // Read by the server (docs/protocol.md: index.html's <noscript>).
  const server = ['app.noscript'];
  const unused = Object.keys(load('en')).filter(
    (k) => !source.includes(`'${k}'`) && !dynamic.some((p) => k.startsWith(p) && source.includes(`\`${p}\${`)) && !server.includes(k),
  );
  assert.deepEqual(unused, []);
});
