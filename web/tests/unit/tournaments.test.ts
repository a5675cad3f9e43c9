//! The Arena pages' pure parts: their routes, the create form's checks
//! and the request it makes, clocks, countdowns, sheets, standing pages,
//! NDJSON, and how refusals are worded.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError } from '../../src/api.js';
import { t, useLang } from '../../src/i18n.js';
import { route } from '../../src/route.js';
import { parseNdjson } from '../../src/tournaments/api.js';
import { arenaErrorText, arenaPath, arenaRequest, clockText, countdownText, defaultArenaForm, secondsLeft, sheetDigits, standingPages, statusKey } from '../../src/tournaments/model.js';
import type { ArenaFull } from '../../src/tournaments/api.js';

test('tournament paths route to the list, the form and an Arena', () => {
  assert.deepEqual(route('/tournament'), { page: 'arenas' });
  assert.deepEqual(route('/tournament/'), { page: 'arenas' });
  assert.deepEqual(route('/tournament/new'), { page: 'arenaNew' });
  assert.deepEqual(route('/tournament/abCD1234'), { page: 'arena', id: 'abCD1234' });
  assert.deepEqual(route('/tournament/a/b'), { page: 'home' });
  assert.equal(arenaPath('a b'), '/tournament/a%20b');
});

test('the form makes lichess’s create_arena request', () => {
  const now = Date.UTC(2026, 0, 1);
  const r = arenaRequest({ ...defaultArenaForm(), name: ' Sunday ', password: 'pw', club: 'lyon', minRating: '1200', maxRating: '1800', minRatedGames: '10', hasChat: false }, now);
  assert.deepEqual(r, {
    ok: {
      clockTime: 3,
      clockIncrement: 2,
      minutes: 45,
      rated: true,
      berserkable: true,
      streakable: true,
      hasChat: false,
      name: 'Sunday',
      password: 'pw',
      'conditions.teamMember.teamId': 'lyon',
      waitMinutes: 5,
      'conditions.minRating.rating': 1200,
      'conditions.maxRating.rating': 1800,
      'conditions.nbRatedGame.nb': 10,
    },
  });
  const at = arenaRequest({ ...defaultArenaForm(), startMode: 'at', startAt: '2026-01-01T10:00' }, now);
  assert.ok('ok' in at && at.ok.startDate === new Date('2026-01-01T10:00').getTime() && !('waitMinutes' in at.ok));
  assert.ok('ok' in arenaRequest({ ...defaultArenaForm(), clockMinutes: '0.5', increment: '0' }, now), 'half a minute is for the server to judge');
});

test('the form names the first thing wrong', () => {
  const now = Date.UTC(2026, 0, 1);
  const err = (over: Partial<ReturnType<typeof defaultArenaForm>>) => {
    const r = arenaRequest({ ...defaultArenaForm(), ...over }, now);
    return 'error' in r ? r.error : null;
  };
  assert.equal(err({ clockMinutes: '' }), 'arena.form.error.clock');
  assert.equal(err({ clockMinutes: '61' }), 'arena.form.error.clock');
  assert.equal(err({ increment: '1.5' }), 'arena.form.error.increment');
  assert.equal(err({ clockMinutes: '0', increment: '0' }), 'arena.form.error.clockZero');
  assert.equal(err({ minutes: '4' }), 'arena.form.error.minutes');
  assert.equal(err({ minutes: '1441' }), 'arena.form.error.minutes');
  assert.equal(err({ name: 'x' }), 'arena.form.error.name');
  assert.equal(err({ waitMinutes: '-1' }), 'arena.form.error.wait');
  assert.equal(err({ startMode: 'at', startAt: '' }), 'arena.form.error.start');
  assert.equal(err({ startMode: 'at', startAt: '2025-01-01T10:00' }), 'arena.form.error.start');
  assert.equal(err({ minRating: '300' }), 'arena.form.error.rating');
  assert.equal(err({ minRating: '1900', maxRating: '1800' }), 'arena.form.error.rating');
  assert.equal(err({ minRatedGames: 'many' }), 'arena.form.error.games');
  assert.equal(err({}), null);
});

test('clocks, countdowns, sheets and standing pages', () => {
  assert.equal(clockText({ limit: 180, increment: 2 }), '3+2');
  assert.equal(clockText({ limit: 30, increment: 0 }), '½+0');
  assert.equal(countdownText(0), '0:00');
  assert.equal(countdownText(299.7), '4:59');
  assert.equal(countdownText(3 * 3600 + 65), '3:01:05');
  assert.equal(countdownText(-5), '0:00');
  assert.deepEqual(sheetDigits('4220'), ['0', '2', '2', '4']);
  assert.equal(standingPages(0), 1);
  assert.equal(standingPages(10), 1);
  assert.equal(standingPages(11), 2);
  assert.equal(statusKey({ status: 10 }), 'arena.status.created');
  assert.equal(statusKey({ status: 20 }), 'arena.status.started');
  assert.equal(statusKey({ status: 30 }), 'arena.status.finished');
  const a = { secondsToStart: 60 } as ArenaFull;
  assert.equal(secondsLeft(a, 1000, 11_000), 50);
  assert.equal(secondsLeft(a, 1000, 100_000), 0);
  assert.equal(secondsLeft({} as ArenaFull, 0, 0), null);
});

test('NDJSON lines are read one by one, broken ones skipped', () => {
  assert.deepEqual(parseNdjson<{ a: number }>('{"a":1}\n\n{"a":\n{"a":2}\n'), [{ a: 1 }, { a: 2 }]);
});

test('refusals are worded in the viewer’s language', async () => {
  await useLang('fr');
  assert.equal(arenaErrorText(new ApiError(404, 'not_found', 'No such tournament')), t('arena.error.notFound'));
  assert.equal(arenaErrorText(new ApiError(404, 'not_found', 'No such tournament')), 'Ce tournoi n’existe pas.');
  assert.equal(arenaErrorText(new ApiError(429, 'rate_limited', 'slow down')), t('arena.error.tooMany'));
  assert.equal(arenaErrorText(new ApiError(400, 'bad', 'the arena lasts 3 minutes')), 'The arena lasts 3 minutes');
  assert.equal(arenaErrorText(new Error('x')), t('error.generic'));
  await useLang('en');
});
