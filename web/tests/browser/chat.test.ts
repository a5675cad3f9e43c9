//! Game chat in the web app: two players talk at a table (markup shown as
//! text), a spectator talks in the spectator room that the players do not
//! see, and "Hide chat" hides the panel and is remembered after a reload.
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

/** Says `text` in the page's chat. */
async function say(page: Page, text: string): Promise<void> {
  await page.getByTestId('chat-input').fill(text);
  await page.getByTestId('chat-send').click();
}

/** The texts of the chat lines a page shows. */
async function lines(page: Page): Promise<string[]> {
  return page.getByTestId('chat-line').evaluateAll((els) => els.map((el) => `${el.querySelector('.chat-user')?.textContent ?? ''} ${el.querySelector('.chat-text')?.textContent ?? ''}`.trim()));
}

/** Waits until the page shows `n` chat lines, the last one ending with `text`. */
async function heard(page: Page, n: number, text: string): Promise<void> {
  await page.getByTestId('chat-line').nth(n - 1).filter({ hasText: text }).waitFor({ timeout: 15_000 });
  assert.equal((await lines(page)).length, n, (await lines(page)).join(' | '));
}

test('two players chat at a table, a spectator in its own room; markup is text; Hide chat is remembered', async () => {
  const a = await newPage();
  const b = await newPage();
  const c = await newPage();
  const aName = await signUp(a.page, 'Chatter');
  const bName = await signUp(b.page, 'Replier');
  const cName = await signUp(c.page, 'Watcher');

  const code = await a.page.evaluate(async () => {
    const r = await fetch('/api/tables', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ minutes: 5, increment: 3, rules: 'plyyard', rated: false, public: true }),
    });
    return ((await r.json()) as { code: string }).code;
  });
  await a.page.goto(`/t/${code}`);
  await b.page.goto(`/t/${code}`);
  await b.page.getByTestId('sit-down').click();
  for (const p of [a.page, b.page]) {
    await p.getByTestId('board').waitFor({ timeout: 15_000 });
    await p.locator('[data-testid="chat"][data-room="player"]').waitFor();
  }

  // The players talk; markup is shown as typed, never made into elements.
  assert.equal(await a.page.getByTestId('chat-input').getAttribute('maxlength'), '140');
  await say(a.page, '<b>hi</b> <img src=x onerror=alert(1)>');
  await heard(b.page, 1, '<b>hi</b> <img src=x onerror=alert(1)>');
  await heard(a.page, 1, '<img src=x onerror=alert(1)>');
  assert.equal(await b.page.locator('[data-testid="chat-lines"] b, [data-testid="chat-lines"] img').count(), 0);
  assert.equal((await lines(b.page))[0], `${aName} <b>hi</b> <img src=x onerror=alert(1)>`);
  await say(b.page, 'good luck');
  await heard(a.page, 2, 'good luck');
  assert.equal(await a.page.getByTestId('chat-input').inputValue(), '', 'sent lines leave the input');

  // A spectator reads and speaks in the spectator room only.
  await c.page.goto(`/t/${code}`);
  await c.page.locator('[data-testid="chat"][data-room="spectator"]').waitFor();
  assert.deepEqual(await lines(c.page), []);
  await say(c.page, 'nice opening');
  await heard(c.page, 1, 'nice opening');
  assert.equal((await lines(c.page))[0], `${cName} nice opening`);
  await say(b.page, 'thanks');
  await heard(a.page, 3, 'thanks');
  assert.ok(!(await lines(a.page)).some((l) => l.includes('nice opening')), 'players do not see the spectator room');
  assert.deepEqual(await lines(c.page), [`${cName} nice opening`], 'spectators do not see the player room');
  await shot(a.page, 'game-chat-desktop');

  // Hide chat: gone, and still hidden after a reload; Show chat brings the history back.
  await a.page.getByTestId('chat-toggle').click();
  assert.equal(await a.page.getByTestId('chat-lines').count(), 0);
  await a.page.reload();
  await a.page.getByTestId('board').waitFor();
  await a.page.getByTestId('chat-toggle').filter({ hasText: 'Show chat' }).waitFor();
  assert.equal(await a.page.getByTestId('chat-lines').count(), 0);
  await say(b.page, 'still there?');
  await a.page.getByTestId('chat-toggle').click();
  await heard(a.page, 4, 'still there?');
  assert.equal((await lines(a.page))[1], `${bName} good luck`);
  assert.equal(await b.page.getByTestId('chat-lines').count(), 1, 'hiding is one player’s choice');

  // Report buttons: beside the opponent, and on the other player's lines (not on one's own).
  const opponentReport = await b.page.getByTestId('report-top').getAttribute('href');
  assert.ok(opponentReport?.startsWith(`/@/${encodeURIComponent(aName)}?report=cheat&`), opponentReport ?? '');
  assert.equal(await b.page.getByTestId('report-bottom').count(), 0);
  assert.equal(await b.page.locator('[data-testid="chat-line"]').filter({ hasText: 'good luck' }).getByTestId('chat-report').count(), 0);
  await b.page.locator('[data-testid="chat-line"]').filter({ hasText: '<b>hi</b>' }).getByTestId('chat-report').click();
  await b.page.waitForURL((u) => u.pathname === `/@/${aName}`);
  await b.page.getByTestId('report-form').waitFor();
  assert.equal(await b.page.getByTestId('report-reason').inputValue(), 'abuse');
  assert.match(await b.page.getByTestId('report-text').inputValue(), /^In the chat of http.*\/game\/.*: “<b>hi<\/b> <img src=x onerror=alert\(1\)>”$/);
  await b.page.getByTestId('report-submit').click();
  await b.page.getByTestId('report-sent').waitFor();
  await done(c.context, c.page);
  await done(b.context, b.page);
  await done(a.context, a.page);
});

test('an anonymous visitor is offered "Log in to chat." as a link that comes back to the table', async () => {
  const a = await newPage();
  const c = await newPage();
  await signUp(a.page, 'Host');
  const code = await a.page.evaluate(async () => {
    const r = await fetch('/api/tables', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ minutes: 5, increment: 3, rules: 'plyyard', rated: false, public: true }),
    });
    return ((await r.json()) as { code: string }).code;
  });
  const b = await newPage();
  await signUp(b.page, 'Guest');
  await b.page.goto(`/t/${code}`);
  await b.page.getByTestId('sit-down').click();
  await b.page.getByTestId('board').waitFor({ timeout: 15_000 });
  await c.page.goto(`/t/${code}`);
  await c.page.getByTestId('board').waitFor({ timeout: 15_000 });
  const link = c.page.getByTestId('chat-login');
  await link.waitFor({ timeout: 15_000 });
  assert.equal((await link.textContent())?.trim(), 'Log in to chat.');
  assert.equal(await c.page.getByTestId('chat-input').count(), 0);
  await link.click();
  await c.page.waitForURL((u) => u.pathname === '/login' && u.searchParams.get('next') === `/t/${code}`);
  await done(c.context, c.page);
  await done(b.context, b.page);
  await done(a.context, a.page);
});
