//! Routing, the profile's page parameter, seat names, game outcomes and the
//! wording of account errors: the pure parts of the pages.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError } from '../../src/api.js';
import { accountErrorText } from '../../src/account/errors.js';
import { useLang } from '../../src/i18n.js';
import { isAborted, isReviewable, outcomeText, resultText } from '../../src/result.js';
import { apiQuery, dayMillis, isFiltered, searchOf, searchQuery } from '../../src/game-search.js';
import { pageParam, route } from '../../src/route.js';
import { seatName } from '../../src/seat.js';

test('paths route to their pages', () => {
  assert.deepEqual(route('/'), { page: 'home' });
  assert.deepEqual(route('/game/abc123'), { page: 'game', id: 'abc123' });
  assert.deepEqual(route('/game/abc123/'), { page: 'game', id: 'abc123' });
  assert.deepEqual(route('/signup'), { page: 'signup' });
  assert.deepEqual(route('/login'), { page: 'login' });
  assert.deepEqual(route('/account'), { page: 'account' });
  assert.deepEqual(route('/@/Alice_1'), { page: 'profile', username: 'Alice_1', n: 1, search: {} });
  assert.deepEqual(route('/@/Alice_1', '?page=3&vs=bob&color=white&x=1'), { page: 'profile', username: 'Alice_1', n: 3, search: { vs: 'bob', color: 'white' } });
  assert.deepEqual(route('/nowhere/at/all'), { page: 'home' });
});

test('the profile page number is a whole number from 1', () => {
  assert.equal(pageParam(''), 1);
  assert.equal(pageParam('?page=2'), 2);
  for (const bad of ['?page=0', '?page=-1', '?page=1.5', '?page=x']) assert.equal(pageParam(bad), 1, bad);
});

test('a game search keeps its filters in the URL and asks the API in milliseconds', () => {
  assert.deepEqual(searchOf('?vs=%20bob%20&result=&since=2026-12-01&until=soon&perfType=blitz'), { vs: 'bob', since: '2026-12-01', perfType: 'blitz' });
  assert.equal(searchQuery({ vs: 'bob', rated: 'true' }, 2), 'vs=bob&rated=true&page=2');
  assert.equal(searchQuery({}), '');
  assert.equal(isFiltered({}), false);
  assert.equal(isFiltered({ analysed: 'false' }), true);
  const since = dayMillis('2026-12-01')!;
  const until = dayMillis('2026-12-01', true)!;
  assert.equal(until - since, 24 * 3600 * 1000 - 1);
  assert.equal(new Date(since).getDate(), 1);
  assert.equal(new Date(until).getDate(), 1);
  assert.equal(dayMillis('2026-13-45x'), null);
  assert.equal(apiQuery({ color: 'black', since: '2026-12-01' }, 3), `page=3&color=black&since=${since}`);
});

test('seats are named: user, computer level, anonymous, deleted', async () => {
  await useLang('en');
  assert.equal(seatName({ kind: 'user', name: 'alice', level: null }), 'alice');
  assert.equal(seatName({ kind: 'computer', name: null, level: 'hard' }), 'Computer · Hard');
  assert.equal(seatName({ kind: 'anonymous', name: null, level: null }), 'Anonymous');
  assert.equal(seatName({ kind: 'deleted', name: null, level: null }), 'deleted player');
  await useLang('ru');
  assert.equal(seatName({ kind: 'deleted', name: null, level: null }), 'удалённый игрок');
  await useLang('en');
});

test('account errors are worded from their code, reason and Retry-After', async () => {
  await useLang('en');
  const err = (status: number, code: string, details: Record<string, unknown> = {}, retry: number | null = null) => new ApiError(status, code, code, details, retry);
  assert.equal(accountErrorText(err(401, 'bad_credentials')), 'Wrong username or password.');
  assert.equal(accountErrorText(err(422, 'weak_password', { reason: 'too_short' })), 'The password is too short: use at least 8 characters.');
  assert.equal(accountErrorText(err(422, 'weak_password', { reason: 'something_new' })), 'This password is too easy to guess.');
  assert.equal(accountErrorText(err(422, 'invalid_username', { reason: 'start' })), 'A username starts with a letter or a digit.');
  assert.equal(accountErrorText(err(429, 'rate_limited', {}, 1)), 'Too many attempts. Try again in 1 second.');
  assert.equal(accountErrorText(err(429, 'rate_limited', {}, 42)), 'Too many attempts. Try again in 42 seconds.');
  assert.equal(accountErrorText(err(0, 'network')), 'The server cannot be reached.');
  assert.equal(accountErrorText(err(500, 'internal')), 'Something went wrong. Please try again.');
  await useLang('ru');
  assert.equal(accountErrorText(err(429, 'rate_limited', {}, 22)), 'Слишком много попыток. Повторите через 22 секунды.');
  assert.equal(accountErrorText(err(429, 'rate_limited', {}, 25)), 'Слишком много попыток. Повторите через 25 секунд.');
  await useLang('ro');
  assert.equal(accountErrorText(err(409, 'username_taken')), 'Acest nume de utilizator este deja folosit.');
  await useLang('en');
});

test('an aborted game reads "Aborted" and has no review; others keep their wording', async () => {
  await useLang('en');
  const aborted = { status: 'ended', result: '*', reason: 'aborted' };
  assert.ok(isAborted(aborted));
  assert.deepEqual(outcomeText(aborted, 'white'), { headline: 'Aborted', reason: null, tone: 'neutral' });
  assert.equal(outcomeText({ ...aborted, reason: null }, null).headline, 'Aborted');
  assert.equal(resultText('*', null, 'aborted').headline, 'Aborted');
  assert.equal(isReviewable({ ...aborted, kind: 'table' }), false);
  const ongoing = { status: 'ongoing', result: '*', reason: null };
  assert.ok(!isAborted(ongoing));
  assert.equal(outcomeText(ongoing, 'white').headline, 'In progress');
  assert.equal(isReviewable({ ...ongoing, kind: 'computer' }), false);
  assert.equal(isReviewable({ ...ongoing, kind: 'imported' }), true);
  const won = { status: 'ended', result: '1-0', reason: 'checkmate' };
  assert.deepEqual(outcomeText(won, 'white'), { headline: 'You won!', reason: 'by checkmate', tone: 'win' });
  assert.equal(isReviewable({ ...won, kind: 'table' }), true);
  for (const l of ['fr', 'ru', 'ro'] as const) {
    await useLang(l);
    const h = outcomeText(aborted, null).headline;
    assert.ok(h && h !== 'Aborted' && !h.startsWith('result.'), `${l}: ${h}`);
  }
  await useLang('en');
});
