//! The clubs' pure parts: their routes and paths, the members' NDJSON,
//! who leads, how refusals are worded, and the members count in each
//! language.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError } from '../../src/api.js';
import { parseMembers } from '../../src/clubs/api.js';
import { clubErrorText, leads } from '../../src/clubs/model.js';
import { tp, useLang } from '../../src/i18n.js';
import { clubPath, clubsPath, route } from '../../src/route.js';

test('club paths route to the list, the creation form and a club', () => {
  assert.deepEqual(route('/team'), { page: 'clubs', n: 1, text: '' });
  assert.deepEqual(route('/team/'), { page: 'clubs', n: 1, text: '' });
  assert.deepEqual(route('/team', '?page=3'), { page: 'clubs', n: 3, text: '' });
  assert.deepEqual(route('/team', '?text=%20lyon%20&page=2'), { page: 'clubs', n: 2, text: 'lyon' });
  assert.deepEqual(route('/team', '?page=0'), { page: 'clubs', n: 1, text: '' });
  assert.deepEqual(route('/team/new'), { page: 'clubNew' });
  assert.deepEqual(route('/team/new/'), { page: 'clubNew' });
  assert.deepEqual(route('/team/club-d-echecs-de-lyon'), { page: 'club', id: 'club-d-echecs-de-lyon' });
  assert.deepEqual(route('/team/a%20b/'), { page: 'club', id: 'a b' });
  assert.deepEqual(route('/team/x/join'), { page: 'home' });
  assert.deepEqual(route('/teams'), { page: 'home' });
});

test('club paths are built back', () => {
  assert.equal(clubPath('club-d-echecs-de-lyon'), '/team/club-d-echecs-de-lyon');
  assert.equal(clubPath('a/b'), '/team/a%2Fb');
  assert.equal(clubsPath(''), '/team');
  assert.equal(clubsPath('  ', 1), '/team');
  assert.equal(clubsPath('', 2), '/team?page=2');
  assert.equal(clubsPath(' Lyon & co ', 1), '/team?text=Lyon+%26+co');
  assert.equal(clubsPath('lyon', 3), '/team?text=lyon&page=3');
  const r = route('/team', clubsPath('Lyon & co', 4).slice('/team'.length));
  assert.deepEqual(r, { page: 'clubs', n: 4, text: 'Lyon & co' });
});

test('the members NDJSON is read line by line, broken lines skipped', () => {
  const text = '{"joinedTeamAt":1700000000000,"id":"bob","name":"Bob"}\n\n{"joinedTeamAt":1600000000000,"id":"alice","name":"Alice"}\n{"id":"cut';
  assert.deepEqual(parseMembers(text), [
    { id: 'bob', name: 'Bob', joinedTeamAt: 1700000000000 },
    { id: 'alice', name: 'Alice', joinedTeamAt: 1600000000000 },
  ]);
  assert.deepEqual(parseMembers(''), []);
});

test('leaders are known by their lower-case id', () => {
  const club = { id: 'c', name: 'C', description: '', open: true, leaders: [{ id: 'alice', name: 'Alice' }], nbMembers: 2 };
  assert.equal(leads(club, 'Alice'), true);
  assert.equal(leads(club, 'alice'), true);
  assert.equal(leads(club, 'Bob'), false);
  assert.equal(leads(club, null), false);
});

test("refusals show the server's words; a lost connection and a failure ours", async () => {
  await useLang('en');
  const said = new ApiError(400, 'lichess', "a club's name has 3 to 60 characters (this one has 2)");
  assert.equal(clubErrorText(said), "A club's name has 3 to 60 characters (this one has 2)");
  assert.equal(clubErrorText(new ApiError(0, 'network', 'TypeError')), 'The server cannot be reached.');
  assert.equal(clubErrorText(new ApiError(500, 'internal', 'boom')), 'Something went wrong. Please try again.');
  assert.equal(clubErrorText(new ApiError(401, 'not_logged_in', 'No such token')), 'Log in first.');
  assert.equal(clubErrorText(new Error('x')), 'Something went wrong. Please try again.');
  await useLang('fr');
  assert.equal(clubErrorText(new ApiError(0, 'network', 'TypeError')), 'Le serveur est injoignable.');
  await useLang('en');
});

test('the members count takes each language’s plural', async () => {
  await useLang('en');
  assert.equal(tp('clubs.members', 1), '1 member');
  assert.equal(tp('clubs.members', 2), '2 members');
  await useLang('ru');
  assert.equal(tp('clubs.members', 1), '1 участник');
  assert.equal(tp('clubs.members', 3), '3 участника');
  assert.equal(tp('clubs.members', 5), '5 участников');
  assert.equal(tp('clubs.members', 21), '21 участник');
  await useLang('ro');
  assert.equal(tp('clubs.members', 1), '1 membru');
  assert.equal(tp('clubs.members', 2), '2 membri');
  assert.equal(tp('clubs.members', 20), '20 de membri');
  await useLang('fr');
  assert.equal(tp('clubs.members', 0), '0 membre');
  assert.equal(tp('clubs.members', 2), '2 membres');
  await useLang('en');
});
