//! The people's pure parts on the client: the inbox's routes, refusals
//! and error sentences, and relation errors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError } from '../../src/api.js';
import { useLang } from '../../src/i18n.js';
import { refusalText, sendErrorText } from '../../src/inbox/api.js';
import { relationErrorText } from '../../src/relations.js';
import { route } from '../../src/route.js';

test('inbox paths route to the list and to a conversation', () => {
  assert.deepEqual(route('/inbox'), { page: 'inbox', username: null });
  assert.deepEqual(route('/inbox/'), { page: 'inbox', username: null });
  assert.deepEqual(route('/inbox/Bob_2'), { page: 'inbox', username: 'Bob_2' });
  assert.deepEqual(route('/inbox/a/b'), { page: 'home' });
});

test('refusals and failures become our sentences, in each language', async () => {
  await useLang('en');
  assert.match(refusalText('new_account'), /first hour/);
  assert.match(refusalText('blocking'), /Unblock/);
  assert.match(refusalText('blocked'), /does not accept/);
  assert.match(sendErrorText(new ApiError(429, 'rate_limited', 'x')), /too many messages/);
  assert.match(sendErrorText(new ApiError(403, 'lichess', 'x')), /cannot receive/);
  assert.match(sendErrorText(new ApiError(0, 'network', 'x')), /cannot be reached/);
  assert.match(relationErrorText(new ApiError(404, 'lichess', 'x')), /no player/);
  assert.match(relationErrorText(new ApiError(403, 'lichess', 'x')), /does not accept/);
  await useLang('ru');
  assert.match(refusalText('new_account'), /первый час/);
  await useLang('ro');
  assert.match(sendErrorText(new ApiError(429, 'rate_limited', 'x')), /prea multe mesaje/);
  await useLang('fr');
  assert.match(refusalText('blocking'), /Débloquez/);
  await useLang('en');
});
