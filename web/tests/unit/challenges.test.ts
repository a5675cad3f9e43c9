//! Challenges' pure parts: the form's settings as the Lichess-API request
//! (clock in seconds, only what tables play), lichess's decline reason keys
//! as our sentences, why a challenge ended, its terms in words, where its
//! game is played, and server errors as sentences.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError, type Challenge } from '../../src/api.js';
import { challengeClock, challengeErrorText, challengeRequest, challengeTerms, choiceKey, DECLINE_CHOICES, defaultChallenge, endedText, gamePath, reasonKey } from '../../src/challenges.js';
import { t, useLang } from '../../src/i18n.js';

function challenge(over: Partial<Challenge> = {}): Challenge {
  return {
    id: 'AbCd1234',
    url: '/game/AbCd1234',
    status: 'created',
    challenger: { id: 'ann', name: 'Ann', rating: 1500, provisional: true },
    destUser: { id: 'bob', name: 'Bob', rating: 1620 },
    variant: { key: 'standard', name: 'Standard' },
    rated: false,
    speed: 'blitz',
    timeControl: { type: 'clock', limit: 300, increment: 3, show: '5+3' },
    color: 'random',
    ...over,
  };
}

test('the form becomes a request with lichess field names, the clock in seconds', () => {
  assert.deepEqual(challengeRequest(defaultChallenge()), { 'clock.limit': 300, 'clock.increment': 3, rated: false, color: 'random', variant: 'standard' });
  assert.deepEqual(challengeRequest({ minutes: ' 30 ', increment: '20', variant: 'chess960', rated: true, color: 'black' }), {
    'clock.limit': 1800,
    'clock.increment': 20,
    rated: true,
    color: 'black',
    variant: 'chess960',
  });
  assert.equal(challengeRequest({ ...defaultChallenge(), minutes: '3', increment: '2' })?.['clock.limit'], 180);
});

test('only clocks played here are sent (½–180 minutes, 0–180 s), the base in seconds', () => {
  assert.equal(challengeRequest({ ...defaultChallenge(), minutes: '0.5', increment: '0' })?.['clock.limit'], 30);
  assert.equal(challengeRequest({ ...defaultChallenge(), minutes: '0.75', increment: '0' })?.['clock.limit'], 45);
  assert.equal(challengeRequest({ ...defaultChallenge(), minutes: '1', increment: '0' })?.['clock.limit'], 60);
  assert.equal(challengeRequest({ ...defaultChallenge(), minutes: '180', increment: '180' })?.['clock.limit'], 10_800);
  for (const [minutes, increment] of [
    ['0', '3'],
    ['0.25', '3'],
    ['181', '3'],
    ['5', '181'],
    ['5.5', '3'],
    ['', '3'],
    ['5', 'x'],
    ['-5', '3'],
  ] as const) {
    assert.equal(challengeRequest({ ...defaultChallenge(), minutes, increment }), null, `${minutes}+${increment}`);
  }
});

test('every lichess decline reason key has its own sentence; unknown keys read as the generic one', async () => {
  await useLang('en');
  const keys = ['generic', 'later', 'tooFast', 'tooSlow', 'timeControl', 'rated', 'casual', 'standard', 'variant', 'noBot', 'onlyBot'];
  const sentences = keys.map((k) => t(reasonKey(k)));
  assert.equal(new Set(sentences).size, keys.length);
  assert.equal(reasonKey('toofast'), 'challenge.reason.tooFast');
  assert.equal(reasonKey('TOOSLOW'), 'challenge.reason.tooSlow');
  assert.equal(reasonKey('nonsense'), 'challenge.reason.generic');
  assert.equal(reasonKey(undefined), 'challenge.reason.generic');
  assert.deepEqual([...DECLINE_CHOICES], ['generic', 'later', 'tooFast', 'tooSlow', 'rated', 'casual']);
  assert.equal(new Set(DECLINE_CHOICES.map((c) => t(choiceKey(c)))).size, DECLINE_CHOICES.length);
});

test('why a challenge ended, in the page language', async () => {
  await useLang('en');
  assert.equal(endedText(challenge({ status: 'declined', declineReasonKey: 'later' }), 'Bob'), `Bob declined your challenge. ${t('challenge.reason.later')}`);
  assert.equal(endedText(challenge({ status: 'declined' }), 'Bob'), `Bob declined your challenge. ${t('challenge.reason.generic')}`);
  assert.equal(endedText(challenge({ status: 'canceled' }), 'Bob'), t('challenge.ended.canceled'));
  assert.equal(endedText(challenge({ status: 'offline' }), 'Bob'), t('challenge.ended.offline'));
  assert.equal(endedText(challenge({ status: 'accepted' }), 'Bob'), null);
  assert.equal(endedText(challenge({ status: 'created' }), 'Bob'), null);
  assert.equal(endedText(challenge({ status: 'strange' }), 'Bob'), t('challenge.ended.unknown'));
  await useLang('fr');
  assert.match(endedText(challenge({ status: 'declined', declineReasonKey: 'tooFast' }), 'Bob')!, /^Bob a refusé votre défi\. .*lente/);
  await useLang('en');
});

test('a challenge’s terms in words, and where its game is played', async () => {
  await useLang('en');
  assert.equal(challengeClock(challenge()), '5+3');
  assert.equal(challengeClock(challenge({ timeControl: { type: 'unlimited' } })), '–');
  assert.deepEqual(challengeTerms(challenge()), ['5+3', 'Blitz', 'Standard chess', 'Casual']);
  assert.deepEqual(challengeTerms(challenge({ rated: true, speed: 'rapid', variant: { key: 'chess960', name: 'Chess960' }, timeControl: { type: 'clock', limit: 600, increment: 5 } })), [
    '10+5',
    'Rapid',
    'Chess960',
    'Rated',
  ]);
  assert.equal(gamePath('AbCd1234', 'K7M2QX'), '/t/K7M2QX');
  assert.equal(gamePath('AbCd1234', null), '/game/AbCd1234');
  assert.equal(gamePath('AbCd1234', undefined), '/game/AbCd1234');
});

test('server errors become our sentences', async () => {
  await useLang('en');
  const err = (status: number, code = 'lichess') => new ApiError(status, code, 'server words');
  assert.equal(challengeErrorText(err(404), true), t('challenge.error.noUser'));
  assert.equal(challengeErrorText(err(400), true), t('challenge.error.invalid'));
  assert.equal(challengeErrorText(err(400), false), t('challenge.error.gone'));
  assert.equal(challengeErrorText(err(404), false), t('challenge.error.gone'));
  assert.equal(challengeErrorText(err(429, 'rate_limited'), true), t('challenge.error.tooMany'));
  assert.equal(challengeErrorText(err(401, 'not_logged_in'), false), t('error.not_logged_in'));
  assert.equal(challengeErrorText(err(403), true), t('challenge.error.forbidden'));
  assert.equal(challengeErrorText(new ApiError(0, 'network', 'x'), true), t('error.network'));
  assert.equal(challengeErrorText(new Error('x'), true), t('error.generic'));
  assert.equal(challengeErrorText(err(500), true), t('error.generic'));
});
