//! Challenges in a real Chromium against the real server: two players (two
//! browser contexts, each signed up through the form). A challenges B from
//! B's profile; B, on another page, sees the banner and accepts; both end on
//! the game's table page (A by its poll). A second challenge is declined
//! with a reason, which A is told; a third is cancelled by A and leaves B's
//! banner. Usernames carry a random suffix: the database may outlive a run.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import type { Page } from 'playwright-core';
import { closeBrowser, done, newPage, shot } from './helpers.js';

after(closeBrowser);

/** Signs up through the form and waits for the name in the header. */
async function signUp(page: Page, prefix: string): Promise<string> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await page.goto('/signup');
  await page.getByTestId('username').fill(name);
  await page.getByTestId('password').fill(`amber-lantern-${randomBytes(6).toString('hex')}-orbit`);
  await page.getByTestId('submit').click();
  await page.getByTestId('nav-user').filter({ hasText: name }).waitFor();
  return name;
}

/** Opens `name`'s profile and sends a challenge with the form (preset `tc`). */
async function challenge(page: Page, name: string, tc: string, opts: { variant?: string; color?: string; rated?: boolean } = {}): Promise<string> {
  await page.goto(`/@/${name}`);
  await page.getByTestId('profile-name').filter({ hasText: name }).waitFor();
  await page.getByTestId('challenge-open').click();
  await page.getByTestId('challenge-form').waitFor();
  await page.getByTestId(`challenge-tc-${tc}`).click();
  await page.getByTestId(`challenge-variant-${opts.variant ?? 'standard'}`).check();
  await page.getByTestId(`challenge-color-${opts.color ?? 'random'}`).check();
  if (opts.rated) await page.getByTestId('challenge-rated').check();
  await page.getByTestId('challenge-submit').click();
  await page.getByTestId('challenge-waiting').filter({ hasText: `Waiting for ${name}…` }).waitFor();
  // The challenge's id, as the server lists it.
  const out = await page.evaluate(async () => ((await (await fetch('/api/challenge')).json()) as { out: { id: string }[] }).out.map((c) => c.id));
  assert.equal(out.length, 1, JSON.stringify(out));
  return out[0]!;
}

test('a challenge from a profile: accepted from the banner on another page, declined with a reason, cancelled', { timeout: 120_000 }, async () => {
  const a = await newPage();
  const b = await newPage();
  const aName = await signUp(a.page, 'Chal');
  const bName = await signUp(b.page, 'Dest');

  // No challenge button on one's own profile, nor for a visitor who is not logged in.
  await a.page.goto(`/@/${aName}`);
  await a.page.getByTestId('profile-name').waitFor();
  assert.equal(await a.page.getByTestId('challenge-open').count(), 0);
  const anon = await newPage();
  await anon.page.goto(`/@/${bName}`);
  await anon.page.getByTestId('profile-name').waitFor();
  assert.equal(await anon.page.getByTestId('challenge-open').count(), 0);
  await done(anon.context, anon.page);

  // A clock that tables do not play is refused by the form itself.
  await a.page.goto(`/@/${bName}`);
  await a.page.getByTestId('challenge-open').click();
  await a.page.getByTestId('challenge-minutes').fill('200');
  await a.page.getByTestId('challenge-submit').click();
  await a.page.getByTestId('challenge-error').filter({ hasText: 'whole minutes up to 180' }).waitFor();

  // B is on the Multiplayer page; A challenges B: rated, 10+5, Chess960, A black.
  await b.page.getByTestId('multiplayer-link').click();
  await b.page.waitForURL((u) => u.pathname === '/multiplayer');
  const first = await challenge(a.page, bName, '10+5', { variant: 'chess960', color: 'black', rated: true });
  const row = b.page.locator(`[data-testid="incoming-challenge"][data-id="${first}"]`);
  await row.waitFor({ timeout: 15_000 });
  assert.match((await row.getByTestId('incoming-challenger').textContent()) ?? '', new RegExp(`^${aName} \\(\\d+\\??\\)$`));
  assert.equal((await row.getByTestId('incoming-terms').textContent())?.trim(), '10+5 · Rapid · Chess960 · Rated');
  await shot(b.page, 'challenge-banner-desktop');
  await row.getByTestId('challenge-accept').click();
  await b.page.waitForURL(/\/t\/[A-Z0-9]{6}$/);
  const table = new URL(b.page.url()).pathname;
  await b.page.getByTestId('board').waitFor();
  // A gets there by polling, and plays black as asked; B plays white.
  await a.page.waitForURL((u) => u.pathname === table, { timeout: 15_000 });
  await a.page.getByTestId('board').waitFor();
  await a.page.locator('.cg-wrap.orientation-black').waitFor();
  await b.page.locator('.cg-wrap.orientation-white').waitFor();
  const game = await a.page.evaluate(async (id) => (await (await fetch(`/api/games/${id}`)).json()) as { id: string; variant: string; rated: boolean }, first);
  assert.deepEqual([game.id, game.variant, game.rated], [first, 'chess960', true]);
  await b.page.getByTestId('incoming-challenges').waitFor({ state: 'detached' });

  // A second challenge, declined as too fast: A is told why.
  const second = await challenge(a.page, bName, '3+2');
  const row2 = b.page.locator(`[data-testid="incoming-challenge"][data-id="${second}"]`);
  await row2.waitFor({ timeout: 15_000 });
  await row2.getByTestId('challenge-decline-reason').selectOption('tooFast');
  await row2.getByTestId('challenge-decline').click();
  await row2.waitFor({ state: 'detached' });
  const ended = a.page.getByTestId('challenge-ended');
  await ended.waitFor({ timeout: 15_000 });
  assert.equal((await ended.textContent())?.trim(), `${bName} declined your challenge. That clock is too fast for them: offer a slower game.`);
  assert.equal(await a.page.getByTestId('challenge-waiting').count(), 0);

  // A third, cancelled by A: it leaves B's banner.
  const third = await challenge(a.page, bName, '5+3');
  const row3 = b.page.locator(`[data-testid="incoming-challenge"][data-id="${third}"]`);
  await row3.waitFor({ timeout: 15_000 });
  await a.page.getByTestId('challenge-cancel').click();
  await a.page.getByTestId('challenge-ended').filter({ hasText: 'You cancelled the challenge.' }).waitFor();
  await row3.waitFor({ state: 'detached', timeout: 15_000 });
  const left = await a.page.evaluate(async () => (await (await fetch('/api/challenge')).json()) as { in: unknown[]; out: unknown[] });
  assert.deepEqual(left, { in: [], out: [] });

  await done(a.context, a.page);
  await done(b.context, b.page);
});
