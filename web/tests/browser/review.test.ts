//! Game review, the analysis board and PGN import in a real Chromium
//! against the real server: a computer game finished and reviewed (graph,
//! labelled move, the engine's line stepped through, next mistake), the
//! analysis board's three lines, and an imported PGN reviewed.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { BASE, clickMove, closeBrowser, DESKTOP, done, newPage, PHONE, selectLang, shot, waitForOurTurn, waitForPlies } from './helpers.js';

after(closeBrowser);

/** After 1. e4 e5 2. Nf3 Nc6: White to move, and 3. Nxe5 gives a knight for a pawn. */
const OPEN_GAME = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3';

const SCHOLAR = '[Event "Club night"]\n[White "Ann"]\n[Black "Bob"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n';

/** Starts a computer game from `fen` through the API (with this context's cookie). */
async function gameFrom(context: BrowserContext, fen: string): Promise<string> {
  const res = await context.request.post('/api/computer-games', {
    data: { level: 'beginner', color: 'white', variant: 'standard', fen },
    headers: { origin: BASE },
  });
  assert.equal(res.status(), 201, await res.text());
  return ((await res.json()) as { id: string }).id;
}

/** Waits for the review page to show a finished review. */
async function reviewShown(page: Page): Promise<void> {
  await page.getByTestId('review-graph').waitFor({ timeout: 90_000 });
}

test('a finished computer game: its review with graph, labels, the engine line, and the analysis board', async () => {
  const { context, page } = await newPage();
  const id = await gameFrom(context, OPEN_GAME);
  await page.goto(`/game/${id}`);
  await waitForOurTurn(page);
  await clickMove(page, 'f3', 'e5');
  await waitForPlies(page, 2);
  await waitForOurTurn(page);
  await page.getByTestId('resign').click();
  await page.getByTestId('resign-confirm').click();
  await page.getByTestId('result').waitFor();

  await page.getByTestId('review-link').click();
  await page.waitForURL(new RegExp(`/game/${id}/review$`));
  await reviewShown(page);
  const moves = page.getByTestId('review-move');
  assert.equal(await moves.count(), 2);
  assert.equal(await moves.first().textContent().then((s) => s?.replace(/[?!]+$/, '')), 'Nxe5');
  const label = page.getByTestId('review-label').first();
  assert.match((await label.textContent()) ?? '', /^\?\??$|^\?!$/);
  assert.equal(await page.getByTestId('review-summary').locator('tbody tr').count(), 4);
  // End and Home (or ↓ and ↑) go to the last move and to the start.
  await page.keyboard.press('End');
  await page.locator('[data-testid="review-move"][data-ply="2"][aria-current="true"]').waitFor();
  await page.keyboard.press('ArrowUp');
  await page.locator('[data-testid="review-move"][aria-current="true"]').waitFor({ state: 'detached' });

  // Next mistake selects the knight's capture: its verdict, the engine's better line, arrows on the board.
  await page.getByTestId('review-next-mistake').click();
  assert.equal(await moves.first().getAttribute('aria-current'), 'true');
  const explanation = page.getByTestId('review-explanation');
  assert.match((await explanation.textContent()) ?? '', /Nxe5/);
  assert.ok(((await page.getByTestId('review-best-line').textContent()) ?? '').length > 0);
  await page.locator('.cg-wrap svg.cg-shapes line, .cg-wrap svg g line').first().waitFor({ state: 'attached' });

  // Stepping through the line moves the pieces.
  const before = await page.locator('cg-board piece').evaluateAll((els) => els.map((e) => (e as HTMLElement).style.transform).join());
  await page.getByTestId('review-show-line').click();
  await page.getByTestId('review-line-next').click();
  assert.match((await page.getByTestId('review-line-step').textContent()) ?? '', /^Move 1 of \d+$/);
  await page.getByTestId('review-line-next').click();
  const during = await page.locator('cg-board piece').evaluateAll((els) => els.map((e) => (e as HTMLElement).style.transform).join());
  assert.notEqual(during, before);
  await shot(page, 'review-desktop');
  await page.getByTestId('review-line-close').click();

  // The graph jumps to a move when clicked (its left edge: the start).
  const graph = page.getByTestId('review-graph');
  const box = (await graph.boundingBox())!;
  await graph.click({ position: { x: 2, y: box.height / 2 } });
  assert.equal(await page.locator('[data-testid="review-move"][aria-current="true"]').count(), 0);

  // The analysis board from the review's position (the start: ply 0), the game's moves as its main line.
  await page.getByTestId('review-analyse').click();
  await page.waitForURL(new RegExp(`/analysis\\?game=${id}&ply=0$`));
  await page.locator('[data-testid="tree-move"]').nth(1).waitFor();
  assert.equal(await page.getByTestId('tree-move').count(), 2);
  await page.locator('[data-testid="analysis-line"]').nth(2).waitFor({ timeout: 30_000 });
  assert.equal(await page.getByTestId('analysis-line').count(), 3);
  await shot(page, 'analysis-desktop');
  // A move on the board (3. Bc4 from the start of the review) is analysed next.
  assert.equal(await page.getByTestId('analysis-fen').inputValue(), OPEN_GAME);
  await clickMove(page, 'f1', 'c4');
  await page.waitForFunction(() => /2B1P3/.test((document.querySelector('[data-testid="analysis-fen"]') as HTMLInputElement | null)?.value ?? ''));
  // Bc4 is a variation beside the game's Nxe5.
  assert.match((await page.getByTestId('tree-variation').textContent()) ?? '', /Bc4/);
  await page.locator('[data-testid="analysis-line"]').nth(2).waitFor({ timeout: 30_000 });
  // And a move of a line: the position after Black's best reply.
  const shown = await page.getByTestId('analysis-fen').inputValue();
  await page.getByTestId('analysis-line-move').first().click();
  // Wait for the new position itself: the field may be redrawn between the two.
  await page.waitForFunction((b) => {
    const value = (document.querySelector('[data-testid="analysis-fen"]') as HTMLInputElement | null)?.value ?? '';
    return value !== b && / w /.test(value);
  }, shown);
  assert.match(await page.getByTestId('analysis-fen').inputValue(), / w /);
  await done(context, page);
});

test('an imported PGN is reviewed; importer errors are shown word for word', async () => {
  const { context, page } = await newPage();
  await page.goto('/import');
  await page.getByTestId('import-pgn').fill('1. e4 e5 2. Ke3 *\n');
  await page.getByTestId('import-submit').click();
  const expected = await context.request.post('/api/import', { data: { pgn: '1. e4 e5 2. Ke3 *\n' }, headers: { origin: BASE } });
  assert.equal(expected.status(), 422);
  const message = ((await expected.json()) as { error: { message: string } }).error.message;
  assert.match(message, /Ke3/);
  await page.getByTestId('import-error').filter({ hasText: message }).waitFor();
  assert.equal(await page.getByTestId('import-error').textContent(), message);
  await shot(page, 'import-error-desktop');

  await page.getByTestId('import-pgn').fill(SCHOLAR);
  await page.getByTestId('import-submit').click();
  await page.waitForURL(/\/game\/[^/]+\/review$/);
  await reviewShown(page);
  assert.equal(await page.getByTestId('review-player-white').textContent(), 'Ann');
  await page.getByTestId('review-next-mistake').click();
  // Black's 3…Nf6 allows Qxf7#.
  let text = (await page.getByTestId('review-explanation').textContent()) ?? '';
  for (let i = 0; i < 6 && !/Nf6/.test(text); i++) {
    await page.getByTestId('review-next-mistake').click();
    text = (await page.getByTestId('review-explanation').textContent()) ?? '';
  }
  assert.match(text, /Nf6\?\?/);
  assert.match(text, /Qxf7#/);
  await done(context, page);
});

/** The Opera Game, Paris 1858 (17 moves): 15…Nxd7 lets White mate in two. */
const OPERA = '[Event "Opera Game"]\n[White "Morphy"]\n[Black "Duke and Count"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0\n';
/** The Immortal Game, London 1851 (23 moves): enough rows to fill the list. */
const IMMORTAL = '[Event "Immortal Game"]\n[White "Anderssen"]\n[Black "Kieseritzky"]\n[Result "1-0"]\n\n1. e4 e5 2. f4 exf4 3. Bc4 Qh4+ 4. Kf1 b5 5. Bxb5 Nf6 6. Nf3 Qh6 7. d3 Nh5 8. Nh4 Qg5 9. Nf5 c6 10. g4 Nf6 11. Rg1 cxb5 12. h4 Qg6 13. h5 Qg5 14. Qf3 Ng8 15. Bxf4 Qf6 16. Nc3 Bc5 17. Nd5 Qxb2 18. Bd6 Bxg1 19. e5 Qxa1+ 20. Ke2 Na6 21. Nxg7+ Kd8 22. Qf6+ Nxf6 23. Be7# 1-0\n';

async function importAndReview(page: Page, pgn: string): Promise<void> {
  await page.goto('/import');
  await page.getByTestId('import-pgn').fill(pgn);
  await page.getByTestId('import-submit').click();
  await page.waitForURL(/\/game\/[^/]+\/review$/);
  await page.getByTestId('review-graph').waitFor({ timeout: 180_000 });
}

test('the review: a mate score only beside a line that mates; explanations follow a language switch', async () => {
  const { context, page } = await newPage();
  await importAndReview(page, OPERA);
  // Every move: a mate score ("mates in") next to the engine's line only when the line ends in mate.
  const plies = await page.getByTestId('review-move').count();
  assert.equal(plies, 33);
  for (let ply = 1; ply <= plies; ply++) {
    await page.locator(`[data-testid="review-move"][data-ply="${ply}"]`).click();
    if ((await page.getByTestId('review-best-line').count()) === 0) continue;
    const title = (await page.getByTestId('review-best-line-title').textContent()) ?? '';
    const line = (await page.getByTestId('review-best-line').textContent()) ?? '';
    if (/mates in|#/.test(title)) assert.match(line.trim(), /#$/, `move ${ply}: "${title}" beside ${line}`);
    // The score after the move says who mates, never a bare "#2".
    const after = (await page.getByTestId('review-eval-after').textContent()) ?? '';
    assert.doesNotMatch(after, /#\d/, `move ${ply}: ${after}`);
  }
  // 15…Nxd7: White mates in 2 after it, in words.
  await page.locator('[data-testid="review-move"][data-ply="30"]').click();
  assert.match((await page.getByTestId('review-eval-after').textContent()) ?? '', /White mates in 2/);

  // A labelled move's words in English, then in French after switching: read again from the server.
  await page.getByTestId('review-next-mistake').click();
  const en = (await page.getByTestId('review-explanation').textContent()) ?? '';
  assert.match(en, /Blunder|Mistake|Inaccuracy/);
  await selectLang(page, 'fr');
  await page.waitForFunction(() => /Gaffe|Erreur|Imprécision/.test(document.querySelector('[data-testid="review-explanation"]')?.textContent ?? ''));
  const fr = (await page.getByTestId('review-explanation').textContent()) ?? '';
  assert.doesNotMatch(fr, /Blunder|Mistake|Inaccuracy|You missed|After this/, fr);
  await selectLang(page, 'en');
  await done(context, page);
});

test('the review move list on a desktop: numbers on the row of their moves, at least 20 rows at once', async () => {
  const { context, page } = await newPage({ viewport: DESKTOP });
  await importAndReview(page, IMMORTAL);
  const list = page.getByTestId('review-moves');
  await list.scrollIntoViewIfNeeded();
  const rows = page.getByTestId('review-row');
  assert.equal(await rows.count(), 23);
  const box = (await list.boundingBox())!;
  let visible = 0;
  for (let i = 0; i < 23; i++) {
    const row = rows.nth(i);
    const r = (await row.boundingBox())!;
    if (r.y >= box.y - 1 && r.y + r.height <= box.y + box.height + 1 && r.y + r.height <= DESKTOP.height) visible++;
    // The number and the moves of a row share its line.
    const no = (await row.locator('.move-no').boundingBox())!;
    assert.equal((await row.locator('.move-no').textContent())?.trim(), `${i + 1}.`);
    for (const b of await row.getByTestId('review-move').all()) {
      const m = (await b.boundingBox())!;
      assert.ok(Math.abs(m.y + m.height / 2 - (no.y + no.height / 2)) <= 3, `row ${i + 1}: number at ${no.y}, move at ${m.y}`);
    }
  }
  assert.ok(visible >= 20, `only ${visible} rows of moves in view`);
  // White's move sits in the second column, Black's in the third.
  const first = rows.nth(0).getByTestId('review-move');
  assert.deepEqual(await first.allTextContents(), ['e4', 'e5']);
  await shot(page, 'review-moves-desktop');
  await done(context, page);
});

test('phone-sized screens: review, analysis board and import fit', async () => {
  const { context, page } = await newPage({ viewport: PHONE });
  await page.goto('/import');
  await page.getByTestId('import-pgn').fill(SCHOLAR);
  await shot(page, 'import-phone');
  await page.getByTestId('import-submit').click();
  await page.waitForURL(/\/review$/);
  await reviewShown(page);
  await page.getByTestId('review-next-mistake').click();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= PHONE.width, `no sideways scrolling (${width}px)`);
  await shot(page, 'review-phone');
  await page.goto(`/analysis?fen=${encodeURIComponent('6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1')}`);
  await page.locator('[data-testid="analysis-line"]').first().waitFor({ timeout: 30_000 });
  assert.match((await page.getByTestId('analysis-line').first().textContent()) ?? '', /^#1 1\. Ra8#/);
  await shot(page, 'analysis-phone');
  await done(context, page);
});
