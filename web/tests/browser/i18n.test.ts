//! Languages in the browser: the server's choice, switching (tables loaded on
//! demand), remembering through the cookie, piece letters, plural forms.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import type { Page } from 'playwright-core';
import { closeBrowser, DESKTOP, done, moveTexts, newPage, PHONE, selectLang, shot, startGame, waitForOurTurn, waitForPlies } from './helpers.js';

after(closeBrowser);

test('the browser language is used on the first visit', async () => {
  const { context, page } = await newPage({ locale: 'fr-FR' });
  await page.goto('/');
  assert.equal(await page.getByTestId('new-game-submit').textContent(), 'Nouvelle partie');
  assert.equal(await page.locator('html').getAttribute('lang'), 'fr');
  assert.equal(await page.getByTestId('lang-select').inputValue(), 'fr');
  await shot(page, 'home-fr-desktop');
  await done(context, page);
});

test('a Russian browser gets Russian; after switching to French, the next page is French', async () => {
  const { context, page } = await newPage({ locale: 'ru-RU' });
  await page.goto('/');
  assert.equal(await page.locator('html').getAttribute('lang'), 'ru');
  assert.equal(await page.getByTestId('new-game-submit').textContent(), 'Новая партия');
  assert.equal(await page.getByTestId('lang-select').inputValue(), 'ru');
  await selectLang(page, 'fr');
  assert.equal(await page.getByTestId('new-game-submit').textContent(), 'Nouvelle partie');
  const cookie = (await context.cookies()).find((c) => c.name === 'plyyard_lang');
  assert.equal(cookie?.value, 'fr');
  assert.equal(cookie?.path, '/');
  assert.equal(cookie?.sameSite, 'Lax');
  assert.ok(cookie && cookie.expires > Date.now() / 1000 + 300 * 86400, `cookie expires ${cookie?.expires}`);
  await page.reload();
  assert.equal(await page.locator('html').getAttribute('lang'), 'fr');
  assert.equal(await page.getByTestId('new-game-submit').textContent(), 'Nouvelle partie');
  await done(context, page);
});

test('only the page language is loaded at start; English words are in no French download', async () => {
  const { context, page } = await newPage({ locale: 'fr-FR' });
  const scripts: Promise<string>[] = [];
  page.on('response', (r) => {
    if (new URL(r.url()).pathname.endsWith('.js')) scripts.push(r.text());
  });
  await page.goto('/');
  await page.getByTestId('new-game-submit').waitFor();
  await page.waitForLoadState('networkidle');
  assert.equal(await page.getByTestId('new-game-submit').textContent(), 'Nouvelle partie');
  const all = (await Promise.all(scripts)).join('\n');
  assert.ok(all.includes('Nouvelle partie'));
  for (const english of ['Take back', 'Play the computer']) assert.ok(!all.includes(english), `English "${english}" was downloaded`);
  for (const other of ['Новая партия', 'Joc nou']) assert.ok(!all.includes(other), `"${other}" was downloaded`);
  await done(context, page);
});

test('home page in English at desktop size', async () => {
  const { context, page } = await newPage({ viewport: DESKTOP });
  await page.goto('/');
  await page.getByTestId('recent-empty').waitFor();
  await shot(page, 'home-desktop');
  await done(context, page);
});

test('switching language changes labels and piece letters, and is remembered', async () => {
  const { context, page } = await newPage({ locale: 'en-GB' });
  await startGame(page, { level: 'beginner', color: 'white' });
  await waitForOurTurn(page);
  const input = page.getByTestId('move-input');
  await input.fill('e4');
  await input.press('Enter');
  await waitForPlies(page, 2);
  await waitForOurTurn(page);
  await input.fill('Nf3');
  await input.press('Enter');
  await waitForPlies(page, 4);
  await waitForOurTurn(page);
  assert.equal((await moveTexts(page))[2], 'Nf3');
  assert.equal(await page.getByTestId('undo').textContent(), 'Take back');

  const expected = {
    fr: { knight: 'Cf3', undo: 'Reprendre le coup', resign: 'Abandonner', label: 'Saisissez votre coup' },
    ru: { knight: 'Кf3', undo: 'Вернуть ход', resign: 'Сдаться', label: 'Введите ход' },
    ro: { knight: 'Cf3', undo: 'Ia mutarea înapoi', resign: 'Abandonează', label: 'Scrie mutarea' },
    en: { knight: 'Nf3', undo: 'Take back', resign: 'Resign', label: 'Type your move' },
  } as const;
  for (const [lang, want] of Object.entries(expected)) {
    await selectLang(page, lang);
    assert.equal((await moveTexts(page))[2], want.knight, lang);
    assert.equal(await page.getByTestId('undo').textContent(), want.undo, lang);
    assert.equal(await page.getByTestId('resign').textContent(), want.resign, lang);
    assert.equal(await page.locator('label[for="move-input"]').textContent(), want.label, lang);
    assert.equal(await page.locator('html').getAttribute('lang'), lang);
  }

  // French letters are accepted in the move input.
  await selectLang(page, 'fr');
  await input.fill('Cc3');
  await input.press('Enter');
  await waitForPlies(page, 6);
  await waitForOurTurn(page);
  const fr = await moveTexts(page);
  assert.match(fr[4]!, /^Cx?c3$/);

  // Russian is remembered across a reload, and shown on the home page.
  await selectLang(page, 'ru');
  await page.reload();
  await waitForPlies(page, 6);
  assert.match((await moveTexts(page))[4]!, /^Кx?c3$/);
  assert.equal(await page.getByTestId('flip-board').textContent(), 'Перевернуть доску');
  await shot(page, 'game-ru-desktop');
  await page.setViewportSize(PHONE);
  await shot(page, 'game-ru-phone');
  await page.setViewportSize(DESKTOP);
  await page.getByTestId('home-link').click();
  assert.equal(await page.getByTestId('new-game-submit').textContent(), 'Новая партия');
  assert.equal(await page.getByTestId('level-expert').locator('xpath=..').textContent(), 'Эксперт');

  await selectLang(page, 'ro');
  assert.equal(await page.getByTestId('new-game-submit').textContent(), 'Joc nou');
  assert.equal(await page.locator('#recent-title').textContent(), 'Partidele mele recente');
  await done(context, page);
});

/** Rows the header's items take (items whose boxes overlap vertically share a row) and the page's width. */
async function headerLayout(page: Page): Promise<{ rows: number; scrollWidth: number }> {
  return page.evaluate(() => {
    const items = [...document.querySelectorAll('.header-inner > *')].filter((e) => (e as HTMLElement).offsetParent !== null);
    const boxes = items.map((e) => e.getBoundingClientRect()).sort((a, b) => a.top - b.top);
    let rows = 0;
    let bottom = -Infinity;
    for (const b of boxes) {
      if (b.top >= bottom) {
        rows += 1;
        bottom = b.bottom;
      } else {
        bottom = Math.max(bottom, b.bottom);
      }
    }
    return { rows, scrollWidth: document.documentElement.scrollWidth };
  });
}

test('on a 360 px phone the Romanian header takes two rows, signed out and in', async () => {
  const { context, page } = await newPage({ viewport: { width: 360, height: 740 }, locale: 'ro-RO' });
  await page.goto('/');
  await page.getByTestId('nav-signup').waitFor();
  assert.equal(await page.locator('html').getAttribute('lang'), 'ro');
  let layout = await headerLayout(page);
  assert.ok(layout.rows <= 2, `signed out: ${layout.rows} rows`);
  assert.ok(layout.scrollWidth <= 360, `signed out: ${layout.scrollWidth} px wide`);
  await shot(page, 'header-ro-phone');

  // The longest username there may be (20 characters).
  const name = `ro_header_${randomBytes(5).toString('hex')}`;
  await page.goto('/signup');
  await page.getByTestId('username').fill(name);
  await page.getByTestId('password').fill(`amber-lantern-${randomBytes(6).toString('hex')}-orbit`);
  await page.getByTestId('submit').click();
  await page.waitForURL((u) => u.pathname === '/');
  await page.getByTestId('nav-user').filter({ hasText: name }).waitFor();
  layout = await headerLayout(page);
  assert.ok(layout.rows <= 2, `signed in: ${layout.rows} rows`);
  assert.ok(layout.scrollWidth <= 360, `signed in: ${layout.scrollWidth} px wide`);
  await shot(page, 'header-ro-phone-signed-in');
  await done(context, page);
});
