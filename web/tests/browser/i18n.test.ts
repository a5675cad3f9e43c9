//! Languages in the browser: detection, switching, remembering, piece letters.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { closeBrowser, DESKTOP, done, moveTexts, newPage, PHONE, shot, startGame, waitForOurTurn, waitForPlies } from './helpers.js';

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
    await page.getByTestId('lang-select').selectOption(lang);
    assert.equal((await moveTexts(page))[2], want.knight, lang);
    assert.equal(await page.getByTestId('undo').textContent(), want.undo, lang);
    assert.equal(await page.getByTestId('resign').textContent(), want.resign, lang);
    assert.equal(await page.locator('label[for="move-input"]').textContent(), want.label, lang);
    assert.equal(await page.locator('html').getAttribute('lang'), lang);
  }

  // French letters are accepted in the move input.
  await page.getByTestId('lang-select').selectOption('fr');
  await input.fill('Cc3');
  await input.press('Enter');
  await waitForPlies(page, 6);
  await waitForOurTurn(page);
  const fr = await moveTexts(page);
  assert.match(fr[4]!, /^Cx?c3$/);

  // Russian is remembered across a reload, and shown on the home page.
  await page.getByTestId('lang-select').selectOption('ru');
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

  await page.getByTestId('lang-select').selectOption('ro');
  assert.equal(await page.getByTestId('new-game-submit').textContent(), 'Joc nou');
  assert.equal(await page.locator('#recent-title').textContent(), 'Partidele mele recente');
  await done(context, page);
});
