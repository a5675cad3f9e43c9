//! The Learn pages in the browser: every page in each of the four languages
//! with its diagrams drawn by chessground and no console error, the header
//! link, the worked example's answer, navigation within the app, the pages
//! without JavaScript, and screenshots at desktop and phone sizes.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { Page } from 'playwright-core';
import { BASE, closeBrowser, consoleErrors, DESKTOP, done, getBrowser, newPage, PHONE, selectLang, shot } from './helpers.js';

after(closeBrowser);

const LOCALES = { en: 'en-US', fr: 'fr-FR', ru: 'ru-RU', ro: 'ro-RO' } as const;

interface Index {
  lang: string;
  sections: { section: string; title: string; pages: { slug: string; title: string }[] }[];
}

async function slugs(): Promise<string[]> {
  const res = await fetch(`${BASE}/api/learn`);
  assert.equal(res.status, 200);
  const index = (await res.json()) as Index;
  const all = index.sections.flatMap((s) => s.pages.map((p) => p.slug));
  assert.ok(all.length > 0, 'the Learn index lists pages');
  return all;
}

/** Waits until every diagram on the page is a chessground board; answers how many there are. */
async function boardsDrawn(page: Page): Promise<number> {
  await page.getByTestId('learn-page').waitFor();
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-testid="learn-board"]')].every((b) => b.querySelector('cg-board') && !b.querySelector('svg.board-svg')),
  );
  return page.getByTestId('learn-board').count();
}

for (const [lang, locale] of Object.entries(LOCALES)) {
  test(`every Learn page opens in ${lang} with its boards drawn`, async () => {
    const all = await slugs();
    const { context, page } = await newPage({ locale });
    const errors = consoleErrors(page);
    for (const slug of all) {
      await page.goto(`/learn/${slug}`);
      assert.equal(await page.locator('html').getAttribute('lang'), lang, slug);
      const drawn = await boardsDrawn(page);
      // The text itself is in the language, not the English stand-in of a page not yet translated.
      assert.equal(await page.getByTestId('learn-page').getAttribute('lang'), lang, `${slug} is not translated into ${lang}`);
      // As many chessground boards as the server drew diagrams.
      const res = await context.request.get(`/api/learn/${slug}`);
      const html = ((await res.json()) as { html: string }).html;
      assert.equal(drawn, html.split('data-testid="learn-board"').length - 1, `${lang} ${slug}`);
      assert.ok(((await page.locator('h1').textContent()) ?? '').trim().length > 0, `${lang} ${slug}: title`);
      assert.ok((await page.title()).length > 0);
    }
    assert.deepEqual(errors, []);
    await done(context, page);
  });
}

test('the header links to Learn from the home page, and Learn pages link within the app', async () => {
  const { context, page } = await newPage();
  const errors = consoleErrors(page);
  await page.goto('/');
  await page.getByTestId('learn-link').click();
  await page.getByTestId('learn-index').waitFor();
  assert.equal(new URL(page.url()).pathname, '/learn');
  // Opened by the app, not by a new document.
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  const first = page.getByTestId('learn-index-link').first();
  const title = ((await first.textContent()) ?? '').trim();
  await first.click();
  await page.waitForURL(/\/learn\/[^/]+$/);
  await boardsDrawn(page);
  const firstUrl = page.url();
  assert.equal(((await page.locator('h1').textContent()) ?? '').trim(), title);
  await page.getByTestId('learn-next').click();
  await page.waitForURL((u) => u.href !== firstUrl);
  await boardsDrawn(page);
  await page.getByTestId('learn-prev').click();
  await page.waitForURL(firstUrl);
  await page.locator('h1', { hasText: title }).waitFor();
  await boardsDrawn(page);
  // History: /, /learn, first, next, first again.
  await page.goBack();
  await page.waitForURL((u) => u.href !== firstUrl);
  await page.goBack();
  await page.waitForURL(firstUrl);
  await page.goBack();
  await page.getByTestId('learn-index').waitFor();
  assert.equal(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument), true);
  assert.deepEqual(errors, []);
  await done(context, page);
});

test('the worked example hides its answer until asked, then shows the answer board', async () => {
  const { context, page } = await newPage();
  await page.goto('/learn/worked-example');
  await boardsDrawn(page);
  const answerBoard = page.locator('details.answer [data-testid="learn-board"]').first();
  assert.equal(await answerBoard.isVisible(), false);
  await page.getByTestId('show-answer').first().click();
  await answerBoard.waitFor({ state: 'visible' });
  const box = await answerBoard.locator('cg-board').boundingBox();
  assert.ok(box && box.width > 100 && Math.abs(box.width - box.height) < 2, `answer board ${JSON.stringify(box)}`);
  assert.ok((await answerBoard.locator('cg-board piece').count()) > 20);
  await done(context, page);
});

test('a language switch on a Learn page shows it again in the new language', async () => {
  const { context, page } = await newPage();
  await page.goto('/learn/board');
  await boardsDrawn(page);
  await selectLang(page, 'fr');
  await page.getByTestId('learn-link').filter({ hasText: 'Apprendre' }).waitFor();
  await page.locator('.learn-crumbs', { hasText: 'Apprendre les échecs' }).waitFor();
  await boardsDrawn(page);
  await done(context, page);
});

test('Learn pages are readable without JavaScript', async () => {
  const context = await (await getBrowser()).newContext({ baseURL: BASE, javaScriptEnabled: false, viewport: DESKTOP });
  const page = await context.newPage();
  await page.goto('/learn');
  await page.getByTestId('learn-index').waitFor();
  assert.ok((await page.getByTestId('learn-link').count()) === 1);
  assert.ok((await page.locator('[data-testid="learn-index"] a').count()) >= 20);
  await page.goto('/learn/worked-example');
  const article = page.getByTestId('learn-page');
  assert.ok(((await article.textContent()) ?? '').length > 500);
  const boards = page.locator('[data-testid="learn-board"] svg.board-svg');
  assert.ok((await boards.count()) >= 2);
  const box = await boards.first().boundingBox();
  assert.ok(box && box.width > 100, `svg board ${JSON.stringify(box)}`);
  // The answer opens without a script, too.
  await page.getByTestId('show-answer').first().click();
  await page.locator('details.answer svg.board-svg').first().waitFor({ state: 'visible' });
  await shot(page, 'learn-nojs-desktop');
  const missing = await page.goto('/learn/no-such-page');
  assert.equal(missing?.status(), 404);
  await page.getByTestId('learn-not-found').waitFor();
  await context.close();
});

for (const [size, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  test(`Learn screenshots at ${size} size`, async () => {
    const { context, page } = await newPage({ viewport });
    await page.goto('/learn');
    await page.getByTestId('learn-index').waitFor();
    await shot(page, `learn-index-${size}`);
    await page.goto('/learn/worked-example');
    await boardsDrawn(page);
    await page.getByTestId('show-answer').first().click();
    await shot(page, `learn-page-${size}`);
    await page.goto('/learn/pieces');
    await boardsDrawn(page);
    await shot(page, `learn-pieces-${size}`);
    await done(context, page);
  });
}
