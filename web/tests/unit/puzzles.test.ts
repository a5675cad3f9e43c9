//! The puzzle pages' pure parts: routes, the position before the opponent's
//! move, streak difficulty steps, the dashboard period, rating changes as
//! shown, and the theme vocabulary with its names.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useLang } from '../../src/i18n.js';
import { daysParam, fenTag, isPuzzleId, signed, streakDifficulty } from '../../src/puzzle/model.js';
import { angleName, COMMON_ANGLES, isTheme, THEME_GROUPS, themeName } from '../../src/puzzle/themes.js';
import { route } from '../../src/route.js';

test('puzzle paths route to their pages', () => {
  assert.deepEqual(route('/training'), { page: 'training', angle: 'mix' });
  assert.deepEqual(route('/training/'), { page: 'training', angle: 'mix' });
  assert.deepEqual(route('/training/fork'), { page: 'training', angle: 'fork' });
  assert.deepEqual(route('/training/daily'), { page: 'training', angle: 'daily' });
  assert.deepEqual(route('/training/Sicilian_Defense'), { page: 'training', angle: 'Sicilian_Defense' });
  assert.deepEqual(route('/training/themes'), { page: 'puzzleThemes' });
  assert.deepEqual(route('/training/dashboard'), { page: 'puzzleDashboard' });
  assert.deepEqual(route('/streak'), { page: 'streak' });
  assert.deepEqual(route('/storm/'), { page: 'storm' });
  assert.deepEqual(route('/training/fork/extra'), { page: 'home' });
});

test('the position before the opponent’s move is the PGN’s FEN tag', () => {
  const pgn = '[FEN "6k1/B1p2p1p/2p1q1p1/1p6/5P1Q/2P4P/2b3P1/6K1 b - - 1 28"]\n[SetUp "1"]\n\n28... Qf5\n';
  assert.equal(fenTag(pgn), '6k1/B1p2p1p/2p1q1p1/1p6/5P1Q/2P4P/2b3P1/6K1 b - - 1 28');
  assert.equal(fenTag('1. e4 e5'), null);
});

test('puzzle ids: lichess’s five characters, or ours (py and six)', () => {
  for (const id of ['K69di', '000rZ', 'pyRWlfP0']) assert.ok(isPuzzleId(id), id);
  for (const id of ['4990', '6E+087', 'pyRWlfP', 'xyRWlfP0', 'py-WlfP0', 'fork']) assert.ok(!isPuzzleId(id), id);
});

test('a streak gets harder step by step', () => {
  const steps = [0, 1, 2, 4, 5, 8, 9, 13, 14, 40].map(streakDifficulty);
  assert.deepEqual(steps, ['easiest', 'easiest', 'easier', 'easier', 'normal', 'normal', 'harder', 'harder', 'hardest', 'hardest']);
});

test('the dashboard period is 7, 30 or 90 days', () => {
  assert.equal(daysParam(''), 30);
  assert.equal(daysParam('?days=7'), 7);
  assert.equal(daysParam('?days=90'), 90);
  assert.equal(daysParam('?days=12'), 30);
});

test('rating changes are signed', () => {
  assert.equal(signed(12), '+12');
  assert.equal(signed(-8), '−8');
  assert.equal(signed(0), '±0');
});

test('the 72 themes of lichess in 9 groups, each named in every language', async () => {
  const keys = new Set(THEME_GROUPS.flatMap((g) => g.themes));
  assert.equal(THEME_GROUPS.length, 9);
  assert.equal(keys.size, 72);
  for (const a of COMMON_ANGLES) assert.ok(a === 'mix' || isTheme(a), a);
  for (const lang of ['en', 'fr', 'ru', 'ro'] as const) {
    await useLang(lang);
    const names = [...keys].map(themeName);
    assert.equal(new Set(names).size, 72, `${lang}: theme names are distinct`);
  }
  await useLang('fr');
  assert.equal(themeName('fork'), 'Fourchette');
  await useLang('en');
  assert.equal(themeName('mateIn2'), 'Mate in 2');
  assert.equal(angleName('mix'), 'Puzzle mix');
  assert.equal(themeName('Sicilian_Defense_Najdorf_Variation'), 'Sicilian Defense Najdorf Variation');
});
