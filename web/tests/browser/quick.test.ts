//! Quick pairing in a real Chromium against the real server: two players
//! (two browser contexts, signed up through the form) click the same cell
//! of the Multiplayer page's grid and land in the same game; a seek is
//! cancelled by clicking its button again and by closing the page, and
//! leaves nothing in the lobby. Usernames carry a random suffix: the
//! database may outlive a run.
//!
//! Skipped, with the reason shown, while the server has no quick pairing
//! (GET /api/lobby lists no `seeks`): the check asks the server.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import type { Page } from 'playwright-core';
import { BASE, closeBrowser, done, newPage, PHONE, selectLang, shot } from './helpers.js';

after(closeBrowser);

const lobby = await fetch(`${BASE}/api/lobby`).then(
  (r) => (r.ok ? (r.json() as Promise<{ seeks?: unknown }>) : null),
  () => null,
);
const skip = lobby && Array.isArray(lobby.seeks) ? false : 'the server has no quick pairing: GET /api/lobby lists no seeks';

async function signUp(page: Page, prefix: string): Promise<string> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await page.goto('/signup');
  await page.getByTestId('username').fill(name);
  await page.getByTestId('password').fill(`amber-lantern-${randomBytes(6).toString('hex')}-orbit`);
  await page.getByTestId('submit').click();
  await page.getByTestId('nav-user').filter({ hasText: name }).waitFor();
  return name;
}

/** Opens the Multiplayer page with casual quick pairing chosen. */
async function openGrid(page: Page): Promise<void> {
  await page.goto('/multiplayer');
  await page.getByTestId('quick').waitFor();
  await page.getByTestId('quick-rated').uncheck();
}

/** The seeks the server lists, asked from `page`. */
async function seeksOf(page: Page): Promise<{ name: string; minutes: number; variant: string }[]> {
  return page.evaluate(async () => ((await (await fetch('/api/lobby')).json()) as { seeks: { name: string; minutes: number; variant: string }[] }).seeks);
}

async function until<T>(what: string, f: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await f();
    if (ok(v)) return v;
    if (Date.now() - t0 > 15_000) throw new Error(`${what}: still ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('two players click the same quick-pairing cell and land in the same game', { skip }, async () => {
  const a = await newPage();
  const b = await newPage();
  const aName = await signUp(a.page, 'Quick');
  await signUp(b.page, 'Pair');
  await openGrid(a.page);
  await openGrid(b.page);
  const cell = 'quick-chess960-15+10';
  assert.match((await a.page.getByTestId(cell).textContent()) ?? '', /15\+10.*Chess960.*Rapid/);
  await a.page.getByTestId(cell).click();
  assert.equal(await a.page.getByTestId(cell).getAttribute('aria-pressed'), 'true');
  await a.page.getByTestId('quick-waiting').waitFor();
  // The other player's grid shows someone waiting there, live.
  await b.page.getByTestId(cell).filter({ hasText: '1 waiting' }).waitFor();
  const listed = await seeksOf(b.page);
  assert.ok(listed.some((s) => s.name === aName && s.minutes === 15 && s.variant === 'chess960'), JSON.stringify(listed));
  await shot(a.page, 'quick-waiting-desktop');
  await b.page.getByTestId(cell).click();
  await a.page.waitForURL(/\/t\/[A-Z0-9]{6}$/, { timeout: 15_000 });
  await b.page.waitForURL(/\/t\/[A-Z0-9]{6}$/, { timeout: 15_000 });
  assert.equal(new URL(a.page.url()).pathname, new URL(b.page.url()).pathname, 'the same table');
  await a.page.getByTestId('board').waitFor({ timeout: 15_000 });
  await b.page.getByTestId('board').waitFor();
  await a.page.locator('.cg-wrap').waitFor();
  await b.page.locator('.cg-wrap').waitFor();
  const white = (p: Page) => p.locator('.cg-wrap.orientation-white').count();
  assert.equal((await white(a.page)) + (await white(b.page)), 1, 'one White, one Black');
  assert.deepEqual(await seeksOf(a.page), []);
  await done(a.context, a.page);
  await done(b.context, b.page);
});

test('a seek is cancelled by its button or by closing the page, and leaves nothing', { skip }, async () => {
  const a = await newPage();
  const b = await newPage({ viewport: PHONE });
  const aName = await signUp(a.page, 'Cancel');
  await signUp(b.page, 'Watch');
  await openGrid(a.page);
  await openGrid(b.page);
  const cell = 'quick-standard-30+20';
  await a.page.getByTestId(cell).click();
  await b.page.getByTestId(cell).filter({ hasText: '1 waiting' }).waitFor();
  await shot(b.page, 'quick-grid-phone');
  // Clicking again cancels: the button is back, the seek gone everywhere.
  await a.page.getByTestId(cell).click();
  assert.equal(await a.page.getByTestId(cell).getAttribute('aria-pressed'), 'false');
  assert.equal(await a.page.getByTestId('quick-waiting').count(), 0);
  await until('seeks after cancel', () => seeksOf(b.page), (s) => !s.some((x) => x.name === aName));
  await b.page.getByTestId(cell).filter({ hasNotText: 'waiting' }).waitFor();
  // Seeking another cell, then closing the page, cancels too.
  await a.page.getByTestId('quick-standard-3+2').click();
  await until('seeks while waiting', () => seeksOf(b.page), (s) => s.some((x) => x.name === aName && x.minutes === 3));
  await done(a.context, a.page);
  await until('seeks after closing', () => seeksOf(b.page), (s) => !s.some((x) => x.name === aName));
  await done(b.context, b.page);
});

test('the lobby lists the players waiting in quick pairing; a click on another player’s seek plays them, rated as they asked', { skip }, async () => {
  const a = await newPage();
  const b = await newPage();
  const aName = await signUp(a.page, 'Listed');
  await signUp(b.page, 'Taker');
  await openGrid(a.page);
  await a.page.getByTestId('quick-rated').check();
  await a.page.getByTestId('quick-standard-2+1').click();
  await a.page.getByTestId('quick-waiting').waitFor();
  // Its own seek is listed as its own, and cannot be taken up.
  const own = a.page.locator(`[data-testid="lobby-seek"][data-name="${aName}"]`);
  await own.filter({ hasText: 'Yours' }).waitFor();
  assert.equal(await own.isDisabled(), true);
  // The other player (casual quick pairing chosen) sees it: 2+1, bullet, rated; in Romanian too.
  await openGrid(b.page);
  const seek = b.page.locator(`[data-testid="lobby-seek"][data-name="${aName}"]`);
  await seek.waitFor();
  assert.match((await seek.textContent()) ?? '', /2\+1.*Bullet.*Rated/);
  await selectLang(b.page, 'ro');
  await b.page.getByTestId('lobby-seeks').filter({ hasText: 'În așteptare la împerecherea rapidă' }).waitFor();
  await selectLang(b.page, 'en');
  await seek.click();
  await a.page.waitForURL(/\/t\/[A-Z0-9]{6}$/, { timeout: 15_000 });
  await b.page.waitForURL(/\/t\/[A-Z0-9]{6}$/, { timeout: 15_000 });
  assert.equal(new URL(a.page.url()).pathname, new URL(b.page.url()).pathname, 'the same table');
  await b.page.getByTestId('board').waitFor({ timeout: 15_000 });
  assert.match((await b.page.getByTestId('game-info').textContent()) ?? '', /2\+1.*Rated/);
  await done(a.context, a.page);
  await done(b.context, b.page);
});
