//! The analysis board in a real Chromium against the real server: a stored
//! game opened as the main line and walked with the arrow keys and the
//! buttons, a different move from an earlier position making a variation,
//! the opening's name, the evaluation bar and numbered engine lines, PGN
//! out (variation in parentheses) and in (a variation shown), FEN in and
//! out, the link from a finished game's page, and the language switch.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { Page } from 'playwright-core';
import { BASE, clickMove, closeBrowser, done, newPage, selectLang, shot, waitForOurTurn } from './helpers.js';

after(closeBrowser);

const SICILIAN = '[Event "Club night"]\n[White "Ann"]\n[Black "Bob"]\n[Result "*"]\n\n1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 *\n';

/** Back-rank mate in one for White: Ra8#. */
const MATE_IN_ONE = '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1';

/** The ply of the move shown (0 at the root, where no move is current). */
async function currentPly(page: Page): Promise<number> {
  const cur = page.locator('[data-testid="tree-move"][aria-current="true"]');
  return (await cur.count()) === 0 ? 0 : Number(await cur.getAttribute('data-ply'));
}

async function waitPly(page: Page, ply: number): Promise<void> {
  if (ply === 0) await page.locator('[data-testid="tree-move"][aria-current="true"]').waitFor({ state: 'detached' });
  else await page.locator(`[data-testid="tree-move"][aria-current="true"][data-ply="${ply}"]`).waitFor();
}

test('the analysis board: a game walked back, a variation, opening, eval bar, numbered lines, PGN and FEN in and out', async () => {
  const { context, page } = await newPage();
  const res = await context.request.post('/api/import', { data: { pgn: SICILIAN }, headers: { origin: BASE } });
  assert.equal(res.status(), 201, await res.text());
  const id = ((await res.json()) as { games: { id: string }[] }).games[0]!.id;

  await page.goto(`/analysis?game=${id}&ply=8`);
  await waitPly(page, 8);
  assert.equal(await page.getByTestId('tree-move').count(), 8);
  assert.match((await page.getByTestId('tree-moves').textContent()) ?? '', /^1\.e4c52\.Nf3d63\.d4cxd44\.Nxd4Nf6$/);

  // Back with the arrow key and the buttons, to the start and the end.
  for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowLeft');
  await waitPly(page, 2);
  assert.match((await page.getByTestId('analysis-opening').textContent()) ?? '', /^B20 Sicilian Defense$/);
  await page.getByTestId('tree-prev').click();
  await waitPly(page, 1);
  await page.keyboard.press('ArrowRight');
  await waitPly(page, 2);
  await page.keyboard.press('Home');
  await waitPly(page, 0);
  assert.ok(await page.getByTestId('tree-first').isDisabled());
  await page.keyboard.press('End');
  await waitPly(page, 8);
  await page.getByTestId('tree-first').click();
  await waitPly(page, 0);
  await page.getByTestId('tree-last').click();
  await waitPly(page, 8);
  await page.locator('[data-testid="tree-move"][data-ply="2"]').click();
  await waitPly(page, 2);
  // FEN out: the box shows the position after 1. e4 c5.
  assert.equal(await page.getByTestId('analysis-fen').inputValue(), 'rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2');

  // 2. Nc3 instead of 2. Nf3: a variation, shown and selected.
  await clickMove(page, 'b1', 'c3');
  await page.getByTestId('tree-variation').waitFor();
  const current = page.locator('[data-testid="tree-move"][aria-current="true"]');
  assert.equal(await current.textContent(), '2.Nc3');
  assert.match((await page.getByTestId('tree-variation').textContent()) ?? '', /^\(2\.Nc3\)$/);
  assert.equal(await page.getByTestId('tree-move').count(), 9);
  // Playing it again follows the variation instead of adding one.
  await page.keyboard.press('ArrowLeft');
  await waitPly(page, 2);
  await clickMove(page, 'b1', 'c3');
  await page.locator('[data-testid="tree-variation"] [aria-current="true"]').waitFor();
  assert.equal(await page.getByTestId('tree-move').count(), 9);

  // The engine's lines carry move numbers (Black to move: "2... …"), the bar White's share.
  await page.locator('[data-testid="analysis-line"]').nth(2).waitFor({ timeout: 30_000 });
  assert.match((await page.getByTestId('analysis-line').first().textContent()) ?? '', /^[+−#][^ ]* 2\.\.\. \S+ 3\. /);
  const share = Number(await page.getByTestId('eval-bar').getAttribute('data-white'));
  assert.ok(share > 0 && share < 100, String(share));
  assert.ok(((await page.getByTestId('eval-score').textContent()) ?? '').length > 0);
  await shot(page, 'analysis-tree-desktop');

  // PGN out: the variation in parentheses.
  await page.getByTestId('analysis-pgn-export').click();
  const pgn = await page.getByTestId('analysis-pgn-out').inputValue();
  assert.match(pgn, /1\. e4 c5 2\. Nf3 \(2\. Nc3\) 2\.\.\. d6 3\. d4 cxd4 4\. Nxd4 Nf6 \*/);

  // PGN in: a variation of its own, nested inside.
  await page.getByTestId('analysis-pgn-in').fill('1. d4 d5 (1... Nf6 2. c4 (2. Nf3)) 2. c4 e6 *');
  await page.getByTestId('analysis-pgn-load').click();
  await page.getByTestId('tree-moves').filter({ hasText: /^1\.d4/ }).waitFor();
  assert.equal(await page.getByTestId('tree-move').count(), 7);
  assert.match((await page.getByTestId('tree-moves').textContent()) ?? '', /^1\.d4d5\(1…Nf62\.c4\(2\.Nf3\)\)2\.c4e6$/);
  await waitPly(page, 0);
  // A bad PGN is refused with the server's words; the tree stays.
  await page.getByTestId('analysis-pgn-in').fill('1. e4 e5 2. Ke3 *');
  await page.getByTestId('analysis-pgn-load').click();
  await page.getByTestId('analysis-error').filter({ hasText: 'move 2. Ke3: illegal' }).waitFor();
  assert.equal(await page.getByTestId('tree-move').count(), 7);

  // FEN in: a new tree from the position typed in.
  await page.getByTestId('analysis-fen').fill(MATE_IN_ONE);
  await page.getByTestId('analysis-submit').click();
  await page.locator('[data-testid="tree-move"]').first().waitFor({ state: 'detached' });
  await page.waitForURL(/\/analysis\?fen=/);
  await page.locator('[data-testid="analysis-line"]').first().waitFor({ timeout: 30_000 });
  assert.match((await page.getByTestId('analysis-line').first().textContent()) ?? '', /^#1 1\. Ra8#/);
  await page.waitForFunction(() => document.querySelector('[data-testid="eval-score"]')?.textContent === '#1');
  assert.equal(await page.getByTestId('analysis-opening').textContent(), 'No named opening');
  await done(context, page);
});

test('a finished game links to the analysis board at its last move; the board follows the language', async () => {
  const { context, page } = await newPage();
  const res = await context.request.post('/api/computer-games', {
    data: { level: 'beginner', color: 'white', variant: 'standard', fen: MATE_IN_ONE },
    headers: { origin: BASE },
  });
  assert.equal(res.status(), 201, await res.text());
  const id = ((await res.json()) as { id: string }).id;
  await page.goto(`/game/${id}`);
  await waitForOurTurn(page);
  assert.equal(await page.getByTestId('analysis-link').count(), 0);
  await clickMove(page, 'a1', 'a8');
  await page.getByTestId('result').waitFor();
  await page.getByTestId('analysis-link').click();
  await page.waitForURL(new RegExp(`/analysis\\?game=${id}&ply=1$`));
  await waitPly(page, 1);
  assert.equal(await page.locator('[data-testid="tree-move"][aria-current="true"]').textContent(), '1.Ra8#');
  // Mate on the board: nothing to analyse, and said so.
  assert.equal(await page.getByTestId('analysis-status').textContent(), 'No legal move: the game is over in this position.');
  await page.keyboard.press('ArrowLeft');
  await waitPly(page, 0);

  // The board's PGN keeps the game's headers (as its own PGN download gives them) and its result.
  const own = await (await context.request.get(`/api/games/${id}/pgn`)).text();
  await page.getByTestId('analysis-pgn-export').click();
  const exported = await page.getByTestId('analysis-pgn-out').inputValue();
  for (const tag of ['Event', 'Site', 'Date', 'White', 'Black', 'Result', 'FEN']) {
    const line = new RegExp(`^\\[${tag} "[^"]*"\\]$`, 'm').exec(own)?.[0];
    assert.ok(line, `the game's PGN has ${tag}`);
    assert.ok(exported.includes(line), `${line} kept in:\n${exported}`);
  }
  assert.match(exported, /\[Result "1-0"\]/);
  assert.ok(exported.trimEnd().endsWith('1-0'), exported);

  await selectLang(page, 'fr');
  await page.getByTestId('analysis-opening').filter({ hasText: 'Pas d’ouverture nommée' }).waitFor();
  assert.equal(await page.getByTestId('analysis-pgn-export').textContent(), 'Exporter en PGN');
  assert.equal(await page.getByTestId('tree-next').getAttribute('aria-label'), await page.getByTestId('tree-next').getAttribute('title'));
  await page.keyboard.press('ArrowRight');
  await waitPly(page, 1);
  // French piece letters in the tree: T for the rook.
  assert.equal(await page.locator('[data-testid="tree-move"][aria-current="true"]').textContent(), '1.Ta8#');
  await selectLang(page, 'en');
  await done(context, page);
});

test('in the move tree a parenthesis never stands alone at the start or the end of a line, at any width', async () => {
  const { context, page } = await newPage();
  await page.goto('/analysis');
  const pgn =
    '1. e4 (1. d4 d5) (1. c4 e5) e5 (1... c5 2. Nf3) (1... e6 2. d4) 2. Nf3 (2. Nc3 Nf6) (2. Bc4 Nf6) Nc6 (2... d6 3. d4) (2... Nf6 3. Nxe5) ' +
    '3. Bb5 (3. Bc4 Bc5) (3. d4 exd4) a6 (3... Nf6 4. O-O) (3... f5 4. Nc3) 4. Ba4 (4. Bxc6 dxc6) Nf6 (4... d6 5. c3) 5. O-O (5. d3 b5) Be7 ' +
    '(5... Nxe4 6. d4) 6. Re1 (6. d3 b5) b5 (6... d6 7. c3) 7. Bb3 d6 (7... O-O 8. c3) 8. c3 O-O (8... Na5 9. Bc2) 9. h3 (9. d4 Bg4) *';
  await page.getByTestId('analysis-pgn-in').fill(pgn);
  await page.getByTestId('analysis-pgn-load').click();
  await page.locator('[data-testid="tree-variation"]').nth(20).waitFor();
  const stray = () =>
    page.getByTestId('tree-moves').evaluate((root) => {
      const moves = [...root.querySelectorAll('[data-testid="tree-move"]')].flatMap((b) => [...b.getClientRects()]);
      const sameLine = (a: DOMRect, b: DOMRect) => Math.abs(a.top + a.height / 2 - (b.top + b.height / 2)) < Math.min(a.height, b.height) / 2;
      const bad: string[] = [];
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const text = n.textContent ?? '';
        for (let i = 0; i < text.length; i++) {
          const c = text[i];
          if (c !== '(' && c !== ')') continue;
          const r = document.createRange();
          r.setStart(n, i);
          r.setEnd(n, i + 1);
          const p = r.getBoundingClientRect();
          // ")" needs a move before it on its line, "(" one after it.
          const ok = moves.some((m) => sameLine(m, p) && (c === ')' ? m.right <= p.left + 1 : m.left >= p.right - 1));
          if (!ok) bad.push(`${c} at ${Math.round(p.left)},${Math.round(p.top)}`);
        }
      }
      return bad;
    });
  for (let width = 340; width <= 1280; width += 15) {
    await page.setViewportSize({ width, height: 900 });
    const bad = await stray();
    assert.deepEqual(bad, [], `at ${width}px`);
  }
  await done(context, page);
});
