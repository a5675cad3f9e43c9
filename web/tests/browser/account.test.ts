//! Accounts in the browser: sign up, log out, log in, the header, the
//! profile with a finished game, password change, refusals with reasons.
//! Usernames carry a random suffix: the database may outlive a run.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import type { Page } from 'playwright-core';
import { apiGame, closeBrowser, consoleErrors, DESKTOP, done, newPage, PHONE, selectLang, shot, startGame, waitForOurTurn } from './helpers.js';

after(closeBrowser);

/** A fresh username (3–20 characters). */
function username(prefix: string): string {
  return `${prefix}_${randomBytes(4).toString('hex')}`;
}

/** A password the strength estimator accepts. */
function strongPassword(): string {
  return `amber-lantern-${randomBytes(6).toString('hex')}-orbit`;
}

async function fillAuth(page: Page, path: '/signup' | '/login', name: string, password: string): Promise<void> {
  await page.goto(path);
  await page.getByTestId('username').fill(name);
  await page.getByTestId('password').fill(password);
  await page.getByTestId('submit').click();
}

/** Signs up through the form and waits for the home page with the name in the header. */
async function signUp(page: Page, name: string, password: string): Promise<void> {
  await fillAuth(page, '/signup', name, password);
  await page.waitForURL((u) => u.pathname === '/');
  await page.getByTestId('nav-user').filter({ hasText: name }).waitFor();
}

test('sign up, log out, log in: the header follows', async () => {
  const { context, page } = await newPage();
  await page.goto('/');
  await page.getByTestId('nav-signup').waitFor();
  await page.getByTestId('nav-login').waitFor();
  assert.equal(await page.getByTestId('nav-user').count(), 0);

  const name = username('Alice');
  const password = strongPassword();
  await page.getByTestId('nav-signup').click();
  await page.waitForURL((u) => u.pathname === '/signup');
  await page.getByTestId('username').fill(name);
  await page.getByTestId('password').fill(password);
  await page.getByTestId('submit').click();
  await page.waitForURL((u) => u.pathname === '/');
  assert.equal(await page.getByTestId('nav-user').textContent(), name);
  assert.equal(await page.getByTestId('nav-signup').count(), 0);
  // The server agrees, and a reload keeps the session.
  assert.equal((await (await context.request.get('/api/account')).json()).username, name);
  await page.reload();
  await page.getByTestId('nav-user').filter({ hasText: name }).waitFor();
  await shot(page, 'home-logged-in-desktop');

  await page.getByTestId('nav-logout').click();
  await page.getByTestId('nav-login').waitFor();
  assert.equal(new URL(page.url()).pathname, '/');
  assert.equal(await page.getByTestId('nav-user').count(), 0);
  assert.equal((await context.request.get('/api/account')).status(), 401);
  await page.reload();
  await page.getByTestId('nav-login').waitFor();

  // A wrong password: one generic message, still anonymous.
  await fillAuth(page, '/login', name, `${password}x`);
  await page.getByTestId('form-error').filter({ hasText: 'Wrong username or password' }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/login');

  await page.getByTestId('password').fill(password);
  await page.getByTestId('submit').click();
  await page.waitForURL((u) => u.pathname === '/');
  await page.getByTestId('nav-user').filter({ hasText: name }).waitFor();
  // The name links to the profile.
  await page.getByTestId('nav-user').click();
  await page.getByTestId('profile-name').filter({ hasText: name }).waitFor();
  await done(context, page);
});

test('a duplicate name (any case) and a weak password are refused with their reasons', async () => {
  const { context, page } = await newPage();
  const name = username('Bob');
  await signUp(page, name, strongPassword());
  await page.getByTestId('nav-logout').click();
  await page.getByTestId('nav-login').waitFor();

  await fillAuth(page, '/signup', name.toUpperCase(), strongPassword());
  await page.getByTestId('form-error').filter({ hasText: 'already taken' }).waitFor();

  await fillAuth(page, '/signup', username('Carol'), 'password');
  await page.getByTestId('form-error').filter({ hasText: /most common passwords|too easy to guess/ }).waitFor();
  await page.getByTestId('password').fill('short');
  await page.getByTestId('submit').click();
  await page.getByTestId('form-error').filter({ hasText: 'too short' }).waitFor();
  await page.getByTestId('username').fill('x');
  await page.getByTestId('password').fill(strongPassword());
  await page.getByTestId('submit').click();
  await page.getByTestId('form-error').filter({ hasText: '3 to 20 characters' }).waitFor();

  // The reasons are translated.
  await selectLang(page, 'fr');
  await page.getByTestId('username').fill(username('Dan'));
  await page.getByTestId('password').fill('short');
  await page.getByTestId('submit').click();
  await page.getByTestId('form-error').filter({ hasText: 'trop court' }).waitFor();
  await selectLang(page, 'ru');
  await page.getByTestId('submit').click();
  await page.getByTestId('form-error').filter({ hasText: 'слишком короткий' }).waitFor();
  await shot(page, 'signup-error-ru');
  assert.equal(await page.getByTestId('nav-user').count(), 0);
  await done(context, page);
});

test('the profile lists a finished game with its players and result, and its PGN', async () => {
  const { context, page } = await newPage();
  const name = username('Eve');
  await signUp(page, name, strongPassword());
  const id = await startGame(page, { level: 'beginner', color: 'white' });
  await waitForOurTurn(page);
  await page.getByTestId('resign').click();
  await page.getByTestId('resign-confirm').click();
  await page.getByTestId('result').waitFor();
  assert.equal((await apiGame(context, id)).result, '0-1');

  await page.goto(`/@/${name}`);
  await page.getByTestId('profile').waitFor();
  assert.equal(await page.getByTestId('profile-name').textContent(), name);
  const item = page.locator(`[data-testid="profile-game"][data-id="${id}"]`);
  await item.waitFor();
  const text = (await item.textContent()) ?? '';
  assert.ok(text.includes(name), text);
  assert.ok(text.includes('Computer · Beginner'), text);
  assert.equal(await item.getByTestId('profile-result').textContent(), 'Black wins, by resignation');
  assert.equal(await item.getByTestId('profile-game-pgn').getAttribute('href'), `/api/games/${id}/pgn`);
  assert.equal(await page.getByTestId('profile-more').count(), 0);
  assert.equal(await page.getByTestId('profile-prev').count(), 0);
  await shot(page, 'profile-desktop');

  // On a phone every button under the game keeps its text on one line, inside the screen.
  await page.setViewportSize(PHONE);
  const buttons = item.locator('.profile-links .button');
  assert.ok((await buttons.count()) >= 3, 'open, PGN and review at least');
  // The lines a button's text takes: the distinct tops of its text's boxes.
  const lines = (el: Element) => {
    const r = document.createRange();
    r.selectNodeContents(el);
    return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size;
  };
  for (const b of await buttons.all()) {
    const box = (await b.boundingBox())!;
    const label = (await b.textContent())?.trim();
    assert.equal(await b.evaluate(lines), 1, `"${label}" on one line`);
    assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width, `"${label}" fits the screen`);
  }
  await shot(page, 'profile-phone');
  await page.setViewportSize(DESKTOP);

  // Someone else sees the same list; the game link opens the game.
  const other = await newPage();
  await other.page.goto(`/@/${name}`);
  const theirs = other.page.locator(`[data-testid="profile-game"][data-id="${id}"]`);
  await theirs.getByTestId('profile-game-link').click();
  await other.page.waitForURL((u) => u.pathname === `/game/${id}`);
  await other.page.getByTestId('result').waitFor();
  await done(other.context, other.page);

  await page.goto('/@/no_such_player_here');
  await page.getByTestId('profile-error').waitFor();
  await done(context, page);
});

test('a password change: the old password no longer logs in, the new one does', async () => {
  const { context, page } = await newPage();
  const name = username('Finn');
  const old = strongPassword();
  const fresh = strongPassword();
  await signUp(page, name, old);
  await page.getByTestId('nav-account').click();
  await page.waitForURL((u) => u.pathname === '/account');

  // The wrong current password and a weak new one are refused.
  await page.getByTestId('current').fill(`${old}x`);
  await page.getByTestId('new').fill(fresh);
  await page.getByTestId('submit').click();
  await page.getByTestId('form-error').filter({ hasText: 'not right' }).waitFor();
  await page.getByTestId('current').fill(old);
  await page.getByTestId('new').fill(name);
  await page.getByTestId('submit').click();
  await page.getByTestId('form-error').filter({ hasText: /username|too easy|too short/ }).waitFor();

  await page.getByTestId('new').fill(fresh);
  await page.getByTestId('submit').click();
  await page.getByTestId('password-changed').waitFor();

  await page.getByTestId('nav-logout').click();
  await page.getByTestId('nav-login').waitFor();
  await fillAuth(page, '/login', name, old);
  await page.getByTestId('form-error').filter({ hasText: 'Wrong username or password' }).waitFor();
  await page.getByTestId('password').fill(fresh);
  await page.getByTestId('submit').click();
  await page.getByTestId('nav-user').filter({ hasText: name }).waitFor();
  await done(context, page);
});

test('deleting the account: games stay, shown as played by a deleted player', async () => {
  const { context, page } = await newPage();
  const name = username('Gus');
  const password = strongPassword();
  await signUp(page, name, password);
  const id = await startGame(page, { level: 'beginner', color: 'black' });
  await page.goto('/account');
  await page.getByTestId('delete-password').fill(`${password}x`);
  await page.getByTestId('delete-submit').click();
  await page.getByTestId('delete-error').filter({ hasText: 'not right' }).waitFor();
  await page.getByTestId('delete-password').fill(password);
  await page.getByTestId('delete-submit').click();
  await page.getByTestId('nav-signup').waitFor();
  assert.equal(new URL(page.url()).pathname, '/');
  const state = (await (await context.request.get(`/api/games/${id}`)).json()) as { black?: { kind: string } };
  assert.equal(state.black?.kind, 'deleted');
  await page.goto(`/@/${name}`);
  await page.getByTestId('profile-error').waitFor();
  await fillAuth(page, '/login', name, password);
  await page.getByTestId('form-error').filter({ hasText: 'Wrong username or password' }).waitFor();
  await done(context, page);
});

/** Opens each path as a new document and waits until its requests have settled. */
async function visit(page: Page, paths: string[]): Promise<void> {
  for (const path of paths) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
  }
}

test('the pages open without a console error, for an anonymous visitor and when logged in', async () => {
  const { context, page } = await newPage();
  const errors = consoleErrors(page);
  const id = await startGame(page);
  const pages = ['/', '/multiplayer', '/learn', '/learn/check-mate-stalemate', '/learn/ex-puzzles', '/analysis', '/import', `/game/${id}`, '/team', '/team/new'];
  await visit(page, [...pages, '/login', '/signup']);
  assert.deepEqual(errors, [], 'anonymous');

  const name = username('Quiet');
  await signUp(page, name, strongPassword());
  await visit(page, [...pages, '/account', `/@/${name}`]);
  assert.deepEqual(errors, [], 'logged in');
  await done(context, page);
});
