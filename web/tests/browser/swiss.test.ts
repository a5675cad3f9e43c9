//! A Swiss page in the browser: a club's leader makes a Swiss (through the
//! API, with the session), a member joins it from the page, shows in the
//! standings, withdraws before the start (removed) and joins again; the
//! leader's open page follows through the Swiss's socket at once; the
//! members' chat; the TRF link; the page in French.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import type { Page } from 'playwright-core';
import { closeBrowser, done, newPage, selectLang, shot } from './helpers.js';

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

/** A same-origin call from the page (the session's cookie): its status and JSON. */
async function post(page: Page, path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  return page.evaluate(
    async ([p, b]) => {
      const r = await fetch(p as string, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b) });
      return { status: r.status, json: (await r.json()) as Record<string, unknown> };
    },
    [path, body] as const,
  );
}

test('a Swiss page: join, withdraw before the start, join again; the TRF link', async () => {
  const a = await newPage();
  const b = await newPage();
  await signUp(a.page, 'swl');
  const player = await signUp(b.page, 'swp');
  const club = await post(a.page, '/api/team', { name: `Swiss Club ${randomBytes(3).toString('hex')}`, open: true });
  assert.equal(club.status, 201, JSON.stringify(club.json));
  const clubId = club.json.id as string;
  assert.equal((await post(b.page, `/team/${clubId}/join`, {})).status, 200);
  const made = await post(a.page, `/api/swiss/new/${clubId}`, {
    name: 'Evening Swiss',
    'clock.limit': 180,
    'clock.increment': 2,
    nbRounds: 5,
    startsAt: Date.now() + 3_600_000,
    roundInterval: 99_999_999,
  });
  assert.equal(made.status, 200, JSON.stringify(made.json));
  const id = made.json.id as string;

  await b.page.goto(`/swiss/${id}`);
  await b.page.getByTestId('swiss-name').filter({ hasText: 'Evening Swiss' }).waitFor();
  assert.equal(await b.page.getByTestId('swiss-status').getAttribute('data-status'), 'created');
  await b.page.getByTestId('swiss-no-players').waitFor();
  assert.equal(await b.page.getByTestId('swiss-trf').getAttribute('href'), `/swiss/${id}.trf`);

  await b.page.getByTestId('swiss-join').click();
  await b.page.locator(`[data-testid="swiss-result"][data-username="${player}"]`).waitFor();
  await b.page.getByTestId('swiss-withdraw').waitFor();
  await shot(b.page, 'swiss-joined-desktop');
  // Before the start, withdrawing removes the player.
  await b.page.getByTestId('swiss-withdraw').click();
  await b.page.getByTestId('swiss-no-players').waitFor();
  await b.page.getByTestId('swiss-join').click();
  await b.page.locator(`[data-testid="swiss-result"][data-username="${player}"]`).waitFor();

  // The leader's page follows; not started, so no next-round button.
  await a.page.goto(`/swiss/${id}`);
  await a.page.locator(`[data-testid="swiss-result"][data-username="${player}"]`).waitFor();
  assert.equal(await a.page.getByTestId('swiss-next-round').count(), 0);
  // Pushed by the socket: while it is up the page does not poll at all.
  assert.equal((await post(b.page, `/api/swiss/${id}/withdraw`, {})).status, 200);
  await a.page.getByTestId('swiss-no-players').waitFor({ timeout: 10_000 });
  assert.equal((await post(b.page, `/api/swiss/${id}/join`, {})).status, 200);
  await a.page.locator(`[data-testid="swiss-result"][data-username="${player}"]`).waitFor({ timeout: 10_000 });

  // The members' chat: a line said on one page shows on the other.
  await b.page.getByTestId('swiss-chat-input').fill('good luck, all');
  await b.page.getByTestId('swiss-chat-send').click();
  await b.page.getByTestId('swiss-chat-line').filter({ hasText: 'good luck, all' }).waitFor();
  await a.page.getByTestId('swiss-chat-line').filter({ hasText: 'good luck, all' }).waitFor({ timeout: 10_000 });
  // The other player's line can be reported; one's own cannot.
  await a.page.getByTestId('swiss-chat-line').filter({ hasText: 'good luck, all' }).getByTestId('swiss-chat-report').waitFor();
  assert.equal(await b.page.getByTestId('swiss-chat-report').count(), 0);

  // The TRF: five rounds announced, the player numbered.
  const trf = await a.page.evaluate(async (p) => (await fetch(p)).text(), `/swiss/${id}.trf`);
  assert.match(trf, /^XXR 5$/m);
  assert.match(trf, new RegExp(`^001 +1 .*${player}`, 'm'));

  await selectLang(b.page, 'fr');
  await b.page.getByTestId('swiss-status').filter({ hasText: 'Pas encore commencé' }).waitFor();
  await b.page.getByTestId('swiss-withdraw').filter({ hasText: 'Se retirer' }).waitFor();
  await done(a.context, a.page);
  await done(b.context, b.page);
});

test('the bell tells a Swiss’s players that it starts soon, then their round’s opponent; in French too', async () => {
  const a = await newPage();
  const b = await newPage();
  const leader = await signUp(a.page, 'swbl');
  await signUp(b.page, 'swbp');
  const club = await post(a.page, '/api/team', { name: `Bell Club ${randomBytes(3).toString('hex')}`, open: true });
  const clubId = club.json.id as string;
  assert.equal((await post(b.page, `/team/${clubId}/join`, {})).status, 200);
  const settings = (startsAt: number) => ({ name: 'Bell Swiss', 'clock.limit': 300, 'clock.increment': 3, nbRounds: 3, startsAt, roundInterval: 99_999_999 });
  // Five minutes and a little from now: the players join before they are told.
  const made = await post(a.page, `/api/swiss/new/${clubId}`, settings(Date.now() + 5 * 60_000 + 8_000));
  assert.equal(made.status, 200, JSON.stringify(made.json));
  const id = made.json.id as string;
  for (const p of [a.page, b.page]) assert.equal((await post(p, `/api/swiss/${id}/join`, {})).status, 200);
  await selectLang(b.page, 'fr');
  // Within five minutes of its start: told once.
  await b.page.locator('[data-testid="nav-bell-count"]').filter({ hasText: '1' }).waitFor({ timeout: 30_000 });
  // Its leader brings the start forward; paired, the players are told whom they play.
  assert.equal((await post(a.page, `/api/swiss/${id}/edit`, settings(Date.now() + 2_000))).status, 200);
  await b.page.locator('[data-testid="nav-bell-count"]').filter({ hasText: '2' }).waitFor({ timeout: 30_000 });
  await b.page.getByTestId('nav-bell').click();
  await b.page.locator('[data-testid="bell-item"][data-kind="tournament_soon"]').filter({ hasText: 'Bell Swiss commence bientôt' }).waitFor();
  const round = b.page.locator('[data-testid="bell-item"][data-kind="swiss_round"]');
  await round.filter({ hasText: `Bell Swiss, ronde 1 : vous jouez contre ${leader}` }).waitFor();
  await round.locator('a').click();
  await b.page.waitForURL((u) => u.pathname === `/swiss/${id}`);
  await selectLang(b.page, 'en');
  await done(a.context, a.page);
  await done(b.context, b.page);
});
