//! Clubs in the browser: a closed club joined by a request that its
//! leader accepts, the members' chat between them, a kick; an open club
//! joined at once and left; the creation form's refusal; the search; the
//! pages as a visitor who is not logged in sees them.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import type { Page } from 'playwright-core';
import { closeBrowser, done, newPage, PHONE, selectLang, shot } from './helpers.js';

after(closeBrowser);

async function signUp(page: Page, prefix: string): Promise<string> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await page.goto('/signup');
  await page.getByTestId('username').fill(name);
  await page.getByTestId('password').fill(`amber-lantern-${randomBytes(6).toString('hex')}-orbit`);
  await page.getByTestId('submit').click();
  await page.waitForURL((u) => u.pathname === '/');
  return name;
}

/** Creates a club through the form (reached from the header's Clubs link) and waits for its page; its path. */
async function createClub(page: Page, name: string, open: boolean, description = ''): Promise<string> {
  await page.getByTestId('clubs-link').click();
  await page.getByTestId('clubs-page').waitFor();
  await page.getByTestId('clubs-create').click();
  await page.waitForURL((u) => u.pathname === '/team/new');
  await page.getByTestId('club-create-name').fill(name);
  if (description) await page.getByTestId('club-create-description').fill(description);
  await page.getByTestId(open ? 'club-create-open' : 'club-create-closed').check();
  await page.getByTestId('club-create-submit').click();
  await page.waitForURL((u) => /^\/team\/(?!new$)[^/]+$/.test(u.pathname));
  await page.getByTestId('club-name').filter({ hasText: name }).waitFor();
  return new URL(page.url()).pathname;
}

/** Waits until the club page says it has `n` members. */
async function members(page: Page, n: number): Promise<void> {
  await page.getByTestId('club-members-count').filter({ hasText: new RegExp(`^${n} members?$`) }).waitFor();
}

test('a closed club: a request with a message, accepted; both chat; the member is kicked', async () => {
  const a = await newPage();
  const b = await newPage();
  const leader = await signUp(a.page, 'lead');
  const player = await signUp(b.page, 'ask');
  const name = `Closed Circle ${randomBytes(3).toString('hex')}`;
  const path = await createClub(a.page, name, false, 'Thursday evenings.\nBring a clock.');
  assert.equal(await a.page.getByTestId('club-open').getAttribute('data-open'), 'false');
  await members(a.page, 1);
  assert.equal(await a.page.getByTestId('club-leader').textContent(), leader);
  await a.page.getByTestId('club-requests-none').waitFor();
  // The leader is a member: the chat is there, empty.
  await a.page.getByTestId('club-chat').waitFor();
  assert.equal(await a.page.getByTestId('club-chat-line').count(), 0);

  // The second player asks, with a message.
  await b.page.goto(path);
  await b.page.getByTestId('club-name').filter({ hasText: name }).waitFor();
  assert.equal(await b.page.getByTestId('club-description').textContent(), 'Thursday evenings.\nBring a clock.');
  await b.page.getByTestId('club-join').filter({ hasText: 'Ask to join' }).click();
  // An empty message is not sent.
  await b.page.getByTestId('club-ask-send').click();
  await b.page.getByTestId('club-error-line').filter({ hasText: 'Write a few words' }).waitFor();
  await b.page.getByTestId('club-message').fill('I play on Thursdays too.');
  await b.page.getByTestId('club-ask-send').click();
  await b.page.getByTestId('club-requested').waitFor();
  assert.equal(await b.page.getByTestId('club-chat').count(), 0);
  await shot(b.page, 'club-requested-desktop');

  // The leader sees the request without reloading, and accepts it.
  const request = a.page.getByTestId('club-request').filter({ hasText: player });
  await request.getByTestId('club-request-message').filter({ hasText: 'I play on Thursdays too.' }).waitFor();
  await shot(a.page, 'club-request-desktop');
  await request.getByTestId('club-accept').click();
  await members(a.page, 2);
  await a.page.getByTestId('club-requests-none').waitFor();
  await a.page.getByTestId('club-member').filter({ hasText: player }).waitFor();

  // The new member's page follows: a member now, with the chat.
  await members(b.page, 2);
  await b.page.locator('[data-testid="club-membership"][data-state="member"]').waitFor();
  await b.page.getByTestId('club-chat-input').fill('Hello, everyone!');
  await b.page.getByTestId('club-chat-input').press('Enter');
  await b.page.getByTestId('club-chat-line').filter({ hasText: 'Hello, everyone!' }).waitFor();
  assert.equal(await b.page.getByTestId('club-chat-input').inputValue(), '');
  // The leader's chat follows too.
  await a.page.getByTestId('club-chat-line').filter({ hasText: `${player} Hello, everyone!` }).waitFor();
  await a.page.getByTestId('club-chat-input').fill('Welcome!');
  await a.page.getByTestId('club-chat-send').click();
  await b.page.getByTestId('club-chat-line').filter({ hasText: `${leader} Welcome!` }).waitFor();
  // Another member's line has a report button that opens the report form, filled in; one's own has none.
  assert.equal(await b.page.getByTestId('club-chat-line').filter({ hasText: 'Hello, everyone!' }).getByTestId('club-chat-report').count(), 0);
  const report = b.page.getByTestId('club-chat-line').filter({ hasText: 'Welcome!' }).getByTestId('club-chat-report');
  const href = new URL((await report.getAttribute('href')) ?? '', 'http://x');
  assert.equal(href.pathname, `/@/${leader}`);
  assert.equal(href.searchParams.get('report'), 'abuse');
  assert.match(href.searchParams.get('text') ?? '', /\/team\/.*Welcome!/);
  await shot(a.page, 'club-leader-desktop');

  // Kicked: the leader's list shrinks, and the former member's page shows the club from outside.
  await a.page.getByTestId('club-member').filter({ hasText: player }).getByTestId('club-kick').click();
  await members(a.page, 1);
  assert.equal(await a.page.getByTestId('club-member').filter({ hasText: player }).count(), 0);
  await b.page.getByTestId('club-join').waitFor();
  await members(b.page, 1);
  assert.equal(await b.page.getByTestId('club-chat').count(), 0);
  await done(a.context, a.page);
  await done(b.context, b.page);
});

test('an open club is joined at once and left; its only leader may not leave', async () => {
  const a = await newPage();
  const b = await newPage({ viewport: PHONE });
  await signUp(a.page, 'open');
  const player = await signUp(b.page, 'join');
  const name = `Open Board ${randomBytes(3).toString('hex')}`;
  const path = await createClub(a.page, name, true);
  assert.equal(await a.page.getByTestId('club-open').getAttribute('data-open'), 'true');

  // The only leader cannot go: the server says why.
  await a.page.getByTestId('club-quit').click();
  await a.page.getByTestId('club-error-line').filter({ hasText: /leader/ }).waitFor();
  await members(a.page, 1);

  await b.page.goto(path);
  await b.page.getByTestId('club-join').filter({ hasText: 'Join the club' }).click();
  await b.page.locator('[data-testid="club-membership"][data-state="member"]').waitFor();
  await members(b.page, 2);
  await b.page.getByTestId('club-member').filter({ hasText: player }).waitFor();
  await b.page.getByTestId('club-chat').waitFor();
  await shot(b.page, 'club-member-phone');
  const width = await b.page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= PHONE.width, `the club page scrolls sideways: ${width}px`);

  // The leader makes the new member a leader, then takes the lead back.
  await a.page.reload();
  await members(a.page, 2);
  const row = a.page.getByTestId('club-member').filter({ hasText: player });
  await row.getByTestId('club-make-leader').click();
  await row.getByTestId('club-leader-badge').waitFor();
  await a.page.getByTestId('club-leader').filter({ hasText: player }).waitFor();
  await row.getByTestId('club-remove-leader').click();
  await row.getByTestId('club-kick').waitFor();
  assert.equal(await row.getByTestId('club-leader-badge').count(), 0);

  // The leader edits the description.
  await a.page.getByTestId('club-edit').click();
  await a.page.getByTestId('club-edit-description').fill('Blitz every Friday.');
  await shot(a.page, 'club-edit-desktop');
  await a.page.getByTestId('club-edit-save').click();
  await a.page.getByTestId('club-description').filter({ hasText: 'Blitz every Friday.' }).waitFor();
  assert.equal(await a.page.getByTestId('club-open').getAttribute('data-open'), 'true');

  // My clubs lists it.
  await b.page.getByTestId('club-back').click();
  await b.page.getByTestId('clubs-mine').getByTestId('clubs-item').filter({ hasText: name }).waitFor();
  await b.page.getByTestId('clubs-mine').getByTestId('clubs-item-link').filter({ hasText: name }).click();

  await b.page.getByTestId('club-quit').click();
  await b.page.locator('[data-testid="club-membership"][data-state="outside"]').waitFor();
  await members(b.page, 1);
  assert.equal(await b.page.getByTestId('club-chat').count(), 0);
  assert.equal(await b.page.getByTestId('club-description').textContent(), 'Blitz every Friday.');

  // Closed from now on: the next one asks.
  await a.page.getByTestId('club-edit').click();
  await a.page.getByTestId('club-edit-closed').check();
  await a.page.getByTestId('club-edit-save').click();
  await a.page.locator('[data-testid="club-open"][data-open="false"]').waitFor();
  await b.page.reload();
  await b.page.getByTestId('club-join').filter({ hasText: 'Ask to join' }).waitFor();
  await done(a.context, a.page);
  await done(b.context, b.page);
});

test("the club creation form shows the server's refusal of a too-short name", async () => {
  const { context, page } = await newPage();
  await signUp(page, 'short');
  await page.goto('/team/new');
  await page.getByTestId('club-create-name').fill('ab');
  await page.getByTestId('club-create-submit').click();
  await page.getByTestId('club-create-error').filter({ hasText: /3 to 60 characters/ }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/team/new');
  await shot(page, 'club-create-error-desktop');
  // The form in French.
  await selectLang(page, 'fr');
  await page.getByTestId('club-create-submit').filter({ hasText: 'Créer le club' }).waitFor();
  await selectLang(page, 'en');
  await done(context, page);
});

test('the search finds a club by part of its name; a visitor sees it read-only', async () => {
  const { context, page } = await newPage();
  await signUp(page, 'find');
  const word = `Zebra${randomBytes(3).toString('hex')}`;
  const name = `The ${word} Knights`;
  const path = await createClub(page, name, true, 'We meet on Sundays.');

  await page.goto('/team');
  await page.getByTestId('clubs-search').fill(word.toLowerCase());
  await page.getByTestId('clubs-search').press('Enter');
  await page.waitForURL((u) => u.pathname === '/team' && u.searchParams.get('text') === word.toLowerCase());
  const found = page.getByTestId('clubs-list').getByTestId('clubs-item');
  await found.filter({ hasText: name }).waitFor();
  assert.equal(await found.count(), 1);
  assert.match((await found.first().getByTestId('club-members-count').textContent()) ?? '', /^1 member$/);
  await shot(page, 'clubs-search-desktop');

  await page.getByTestId('clubs-search').fill(`nothing-${randomBytes(4).toString('hex')}`);
  await page.getByTestId('clubs-search-submit').click();
  await page.getByTestId('clubs-empty').waitFor();
  await page.getByTestId('clubs-all').click();
  await page.getByTestId('clubs-list').getByTestId('clubs-item').first().waitFor();

  // A visitor who is not logged in: the club and its members, a log-in link, no buttons.
  const visitor = await newPage();
  await visitor.page.goto('/team');
  await visitor.page.getByTestId('clubs-login').waitFor();
  assert.equal(await visitor.page.getByTestId('clubs-create').count(), 0);
  await visitor.page.goto(path);
  await visitor.page.getByTestId('club-name').filter({ hasText: name }).waitFor();
  await visitor.page.getByTestId('club-member').first().waitFor();
  const login = visitor.page.getByTestId('club-login');
  assert.equal(await login.getAttribute('href'), `/login?next=${encodeURIComponent(path)}`);
  assert.equal(await visitor.page.getByTestId('club-join').count(), 0);
  assert.equal(await visitor.page.getByTestId('club-chat').count(), 0);
  // In Russian.
  await selectLang(visitor.page, 'ru');
  await visitor.page.getByTestId('club-members-count').filter({ hasText: '1 участник' }).waitFor();
  await visitor.page.getByTestId('clubs-link').filter({ hasText: 'Клубы' }).waitFor();
  await visitor.page.goto('/team/no-such-club-here');
  await visitor.page.getByTestId('club-error').filter({ hasText: 'Такого клуба нет.' }).waitFor();
  await done(visitor.context, visitor.page);
  await done(context, page);
});
