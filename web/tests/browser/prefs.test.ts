//! Preferences in a real Chromium against the real server: a visitor's
//! board theme and piece set kept by the browser; an account's move
//! confirmation, resign confirmation and zen mode applied in a game
//! against the computer, and kept by the server (lichess's API reads them).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import type { Page } from 'playwright-core';
import { clickMove, closeBrowser, consoleErrors, done, newPage, selectLang, startGame, waitForOurTurn } from './helpers.js';

after(closeBrowser);

async function signUp(page: Page): Promise<string> {
  const name = `Prefs_${randomBytes(4).toString('hex')}`;
  await page.goto('/signup');
  await page.getByTestId('username').fill(name);
  await page.getByTestId('password').fill(`amber-lantern-${randomBytes(6).toString('hex')}-orbit`);
  await page.getByTestId('submit').click();
  await page.getByTestId('nav-user').filter({ hasText: name }).waitFor();
  return name;
}

const root = (p: Page, key: string) => p.evaluate((k) => document.documentElement.dataset[k] ?? null, key);

test('a visitor’s board theme and piece set: applied at once, kept by the browser, drawn from the shipped fonts', async () => {
  const { context, page } = await newPage();
  const errors = consoleErrors(page);
  await page.goto('/');
  await page.getByTestId('nav-prefs').click();
  await page.waitForURL((u) => u.pathname === '/account/preferences');
  await page.getByTestId('prefs').filter({ hasText: 'Saved in this browser' }).waitFor();
  assert.equal(await root(page, 'board'), 'brown');
  await page.getByTestId('pref-theme').selectOption('blue');
  await page.getByTestId('pref-pieceSet').selectOption('noto');
  await page.getByTestId('prefs-status').filter({ hasText: 'Saved.' }).waitFor();
  assert.equal(await root(page, 'board'), 'blue');
  assert.equal(await root(page, 'pieces'), 'noto');
  // A game's pieces are the font's glyphs on the blue board.
  await startGame(page);
  const piece = page.locator('cg-board piece.white.king');
  await piece.waitFor();
  const look = await piece.evaluate((el) => {
    const s = getComputedStyle(el);
    const before = getComputedStyle(el, '::before');
    return { bg: s.backgroundImage, font: s.fontFamily, glyph: before.content };
  });
  assert.equal(look.bg, 'none');
  assert.match(look.font, /Noto Sans Symbols 2/);
  assert.equal(look.glyph, '"♚"');
  await page.waitForFunction(() => document.fonts.check('32px "Noto Sans Symbols 2"', '♚'));
  assert.match(await page.locator('cg-board').evaluate((el) => getComputedStyle(el).backgroundImage), /8ca2ad/);
  // Kept across a reload; in Russian the page names them.
  await page.goto('/account/preferences');
  assert.equal(await page.getByTestId('pref-theme').inputValue(), 'blue');
  await selectLang(page, 'ru');
  await page.getByTestId('prefs').filter({ hasText: 'Настройки' }).waitFor();
  await selectLang(page, 'en');
  assert.deepEqual(errors, []);
  await done(context, page);
});

test('an account’s move confirmation, resign without asking and zen mode, kept by the server', async () => {
  const { context, page } = await newPage();
  await signUp(page);
  await page.getByTestId('nav-prefs').click();
  await page.getByTestId('prefs').filter({ hasText: 'Saved to your account' }).waitFor();
  await page.getByTestId('pref-confirmMove').selectOption('always');
  await page.getByTestId('prefs-status').filter({ hasText: 'Saved.' }).waitFor();
  await page.getByTestId('pref-confirmResign').uncheck();
  await page.getByTestId('pref-zen').check();
  await page.waitForFunction(async () => {
    const p = (await (await fetch('/api/prefs')).json()) as { confirmMove: string; confirmResign: boolean; zen: boolean };
    return p.confirmMove === 'always' && !p.confirmResign && p.zen;
  });
  // Another browser of the same account: the server's preferences.
  await page.goto('/account/preferences');
  await page.waitForFunction(() => (document.querySelector('[data-testid="pref-confirmMove"]') as HTMLSelectElement | null)?.value === 'always');
  await page.locator('[data-testid="pref-zen"]:checked').waitFor();

  // A game against the computer (zen hides the move list: the form is filled here).
  await page.goto('/');
  await page.getByTestId('level-beginner').check();
  await page.getByTestId('color-white').check();
  await page.getByTestId('new-game-submit').click();
  await page.waitForURL(/\/game\/[^/]+$/);
  await page.locator('cg-board').waitFor();
  // Zen: no header and no side column while playing.
  await page.getByTestId('zen-exit').waitFor();
  assert.equal(await page.locator('.site-header').isVisible(), false);
  await page.locator('[data-testid="status"][data-state="your-turn"]').waitFor({ state: 'attached' });
  // The move waits: cancelled, nothing is played; confirmed, it is.
  await clickMove(page, 'e2', 'e4');
  await page.getByTestId('confirm-move').filter({ hasText: 'e2e4' }).waitFor();
  await page.getByTestId('confirm-move-no').click();
  await page.getByTestId('confirm-move').waitFor({ state: 'detached' });
  await clickMove(page, 'd2', 'd4');
  await page.getByTestId('confirm-move-yes').click();
  await page.locator('cg-board piece.white.pawn').first().waitFor();
  // Leaving zen mode shows the rest again, and resigning does not ask.
  await page.getByTestId('zen-exit').click();
  await page.locator('.site-header').waitFor();
  // The computer may already have replied: wait for our move, not for a count.
  await page.locator('[data-testid="move"][data-uci="d2d4"]').waitFor({ timeout: 30_000 });
  assert.equal(await page.locator('[data-testid="move"][data-uci="d2d4"]').count(), 1);
  assert.equal(await page.locator('[data-testid="move"][data-uci="e2e4"]').count(), 0);
  await waitForOurTurn(page);
  await page.getByTestId('resign').click();
  await page.getByTestId('result-headline').waitFor({ timeout: 15_000 });
  assert.equal(await page.getByTestId('resign-confirm').count(), 0);
  assert.equal(await page.getByTestId('pref-zen').count(), 0);
  await done(context, page);
});
