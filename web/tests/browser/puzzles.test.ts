//! The puzzle pages in a real Chromium against the real server, with
//! lichess's sample imported by tests/run.mjs: a puzzle solved (its
//! solution read from the API, the moves clicked on the board), one failed
//! by a wrong move then retried and its solution viewed, the hint, the
//! puzzle of the day, a theme from the themes page, the rating change of an
//! account, the dashboard, a streak ending on a mistake, a storm counting a
//! solved puzzle, and the texts in French.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import type { Page } from 'playwright-core';
import { BASE, clickMove, closeBrowser, done, newPage, PHONE, selectLang, shot } from './helpers.js';

after(closeBrowser);

const BOARD = '[data-testid="puzzle-board"]';

interface PuzzleJson {
  game: { id: string; pgn: string; fen: string; lastMove: string };
  puzzle: { id: string; rating: number; solution: string[]; themes: string[] };
}

interface LegalMove {
  uci: string;
  san: string;
  fen: string;
}

/** Are there puzzles on the server under test (tests/run.mjs imports lichess's sample when it finds it)? */
const havePuzzles = await fetch(`${BASE}/api/puzzle/daily`).then(
  (r) => r.ok,
  () => false,
);
const skip = () => (havePuzzles ? false : 'no puzzles imported (lichess-sample.csv not found)');

/** Calls the server from inside the page (same origin, this context's cookie). */
async function api<T>(page: Page, path: string, body?: unknown): Promise<{ status: number; json: T }> {
  return page.evaluate(
    async ([p, b]) => {
      const res = await fetch(p as string, b === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) });
      const text = await res.text();
      let json: unknown = text;
      try {
        json = JSON.parse(text);
      } catch {
        // NDJSON or empty: the text itself.
      }
      return { status: res.status, json };
    },
    [path, body] as const,
  ) as Promise<{ status: number; json: T }>;
}

/** Waits until the board takes the player's move (in a position other than `not`); answers the puzzle id and the FEN. */
async function playable(page: Page, not: string | null = null): Promise<{ id: string; fen: string }> {
  const handle = await page.waitForFunction(
    (prev) => {
      const p = document.querySelector('[data-testid="puzzle-board"][data-state="play"]');
      const b = p?.querySelector('[data-testid="exercise-board"][data-movable="true"]');
      const fen = b?.getAttribute('data-fen');
      return p && fen && fen !== prev ? { id: p.getAttribute('data-puzzle-id')!, fen } : null;
    },
    not,
    { timeout: 20_000 },
  );
  return (await handle.jsonValue()) as { id: string; fen: string };
}

/** The puzzle shown, with its solution, as the API gives it to this player. */
async function shownPuzzle(page: Page): Promise<PuzzleJson> {
  const { id } = await playable(page);
  const r = await api<PuzzleJson>(page, `/api/puzzle/${id}`);
  assert.equal(r.status, 200);
  return r.json;
}

const ROLES: Record<string, string> = { q: 'queen', r: 'rook', b: 'bishop', n: 'knight' };

/** Plays `uci` on the board (choosing the promotion piece when there is one). */
async function move(page: Page, uci: string): Promise<void> {
  await clickMove(page, uci.slice(0, 2), uci.slice(2, 4));
  if (uci.length === 5) await page.getByTestId(`promotion-${ROLES[uci[4]!]}`).click();
}

/** Plays the player's moves of the solution, waiting for each reply; ends when the puzzle is solved. */
async function solve(page: Page, p: PuzzleJson): Promise<void> {
  let fen: string | null = null;
  for (let i = 0; i < p.puzzle.solution.length; i += 2) {
    fen = (await playable(page, i === 0 ? null : fen)).fen;
    await move(page, p.puzzle.solution[i]!);
  }
  // Solved: shown as such, or already replaced by the next puzzle (Streak and Storm move on by themselves).
  await page.waitForFunction((id) => {
    const b = document.querySelector('[data-testid="puzzle-board"]');
    return b && (b.getAttribute('data-puzzle-id') !== id || b.getAttribute('data-state') === 'win');
  }, p.puzzle.id);
}

/** A legal move of `fen` that is neither the solution's first nor a mate. */
async function wrongMove(page: Page, p: PuzzleJson, fen: string): Promise<string> {
  const r = await api<{ moves: LegalMove[] }>(page, '/api/positions/inspect', { fen });
  const m = r.json.moves.find((x) => x.uci !== p.puzzle.solution[0] && !x.san.endsWith('#') && x.uci.length === 4);
  assert.ok(m, `a wrong move in ${fen}`);
  return m.uci;
}

/** This player's rounds, the latest first. */
async function activity(page: Page): Promise<Array<{ win: boolean; puzzle: { id: string } }>> {
  const r = await api<string>(page, '/api/puzzle/activity');
  assert.equal(r.status, 200);
  const text = typeof r.json === 'string' ? r.json : JSON.stringify(r.json);
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { win: boolean; puzzle: { id: string } });
}

function username(): string {
  return `puz_${randomBytes(4).toString('hex')}`;
}

test('the header links to the trainer; a puzzle is solved by clicking its solution', { skip: skip() }, async () => {
  const { context, page } = await newPage();
  await page.goto('/');
  await page.getByTestId('puzzles-link').click();
  await page.waitForURL((u) => u.pathname === '/training');
  const p = await shownPuzzle(page);
  // The solver's side is at the bottom and to move; the opponent's move is highlighted.
  const color = await page.locator(BOARD).getAttribute('data-color');
  assert.equal(color, p.game.fen.split(' ')[1] === 'w' ? 'white' : 'black');
  assert.equal(await page.locator(`.cg-wrap.orientation-${color}`).count(), 1);
  assert.equal(await page.locator('cg-board square.last-move').count(), 2);
  await page.getByTestId('puzzle-feedback').filter({ hasText: color === 'white' ? 'for White' : 'for Black' }).waitFor();
  await solve(page, p);
  await page.getByTestId('puzzle-feedback').filter({ hasText: 'Puzzle solved' }).waitFor();
  // Once over: the puzzle's rating and themes; not rated without an account.
  await page.getByTestId('puzzle-rating').filter({ hasText: String(p.puzzle.rating) }).waitFor();
  assert.ok((await page.getByTestId('puzzle-themes').locator('a').count()) === p.puzzle.themes.length);
  await page.getByTestId('puzzle-unrated').waitFor();
  assert.equal(await page.getByTestId('puzzle-rating-diff').count(), 0);
  // The result was sent: a win.
  await page.waitForFunction(() => !document.body.textContent?.includes('Saving the result'));
  const rounds = await activity(page);
  assert.deepEqual(
    rounds.filter((r) => r.puzzle.id === p.puzzle.id).map((r) => r.win),
    [true],
  );
  await shot(page, 'puzzle-solved');
  // The next puzzle is another one.
  await page.getByTestId('puzzle-next').click();
  const next = await playable(page);
  assert.notEqual(next.id, p.puzzle.id);
  await done(context, page);
});

test('a wrong move fails the puzzle: retry, then view the solution', { skip: skip() }, async () => {
  const { context, page } = await newPage();
  await page.goto('/training');
  const p = await shownPuzzle(page);
  const start = await playable(page);
  await move(page, await wrongMove(page, p, start.fen));
  await page.locator(`${BOARD}[data-state="fail"]`).waitFor();
  await page.locator('[data-testid="puzzle-feedback"].bad').filter({ hasText: 'Puzzle failed' }).waitFor();
  await page.getByTestId('puzzle-next').waitFor();
  // The failure is sent at once.
  await page.waitForFunction(() => !document.body.textContent?.includes('Saving the result'));
  assert.deepEqual(
    (await activity(page)).filter((r) => r.puzzle.id === p.puzzle.id).map((r) => r.win),
    [false],
  );
  await shot(page, 'puzzle-failed');
  // Retry: the puzzle's position again, taking moves.
  await page.getByTestId('puzzle-retry').click();
  const again = await playable(page);
  assert.equal(again.fen, start.fen);
  // View the solution: it is played out to the end.
  await page.getByTestId('puzzle-solution').click();
  await page.locator(`${BOARD}[data-state="view"]`).waitFor();
  await page.waitForFunction(
    (n) => {
      const text = document.querySelector('[data-testid="puzzle-feedback"]')?.textContent ?? '';
      const line = text.replace(/^Solution:\s*/, '');
      return !line.includes('…') && line.split(/\s+/).filter(Boolean).length === n;
    },
    p.puzzle.solution.length,
    { timeout: 20_000 },
  );
  // Still one round, a loss.
  assert.deepEqual(
    (await activity(page)).filter((r) => r.puzzle.id === p.puzzle.id).map((r) => r.win),
    [false],
  );
  await done(context, page);
});

test('the hint shows the piece to move and does not fail the puzzle; viewing the solution loses', { skip: skip() }, async () => {
  const { context, page } = await newPage();
  await page.goto('/training');
  const p = await shownPuzzle(page);
  await page.getByTestId('puzzle-hint').click();
  await page.locator(`${BOARD}[data-hint="${p.puzzle.solution[0]!.slice(0, 2)}"]`).waitFor();
  await page.getByTestId('puzzle-feedback').filter({ hasText: 'Hint' }).waitFor();
  await page.locator('cg-container svg.cg-shapes circle, cg-container svg circle').first().waitFor({ state: 'attached' });
  await solve(page, p);
  await page.waitForFunction(() => !document.body.textContent?.includes('Saving the result'));
  assert.deepEqual(
    (await activity(page)).filter((r) => r.puzzle.id === p.puzzle.id).map((r) => r.win),
    [true],
  );
  // The next one given up: viewing its solution counts as a loss.
  await page.getByTestId('puzzle-next').click();
  await playable(page);
  const q = await shownPuzzle(page);
  await page.getByTestId('puzzle-solution').click();
  await page.locator(`${BOARD}[data-state="view"]`).waitFor();
  await page.getByTestId('puzzle-next').waitFor();
  await page.waitForFunction(() => !document.body.textContent?.includes('Saving the result'));
  assert.deepEqual(
    (await activity(page)).filter((r) => r.puzzle.id === q.puzzle.id).map((r) => r.win),
    [false],
  );
  await done(context, page);
});

test('the puzzle of the day, and a theme chosen on the themes page', { skip: skip() }, async () => {
  const { context, page } = await newPage();
  await page.goto('/training/daily');
  const daily = await api<PuzzleJson>(page, '/api/puzzle/daily');
  const shown = await playable(page);
  assert.equal(shown.id, daily.json.puzzle.id);
  // A puzzle by its id, with the opponent's check shown.
  const batch = await api<{ puzzles: PuzzleJson[] }>(page, '/api/puzzle/batch/mix?nb=30');
  const checking = batch.json.puzzles.find((p) => p.game.pgn.trim().endsWith('+'));
  assert.ok(checking, 'a puzzle starting from a check');
  await page.goto(`/training/${checking.puzzle.id}`);
  assert.equal((await playable(page)).id, checking.puzzle.id);
  await page.locator('cg-board square.check').waitFor({ state: 'attached' });
  await shot(page, 'puzzle-by-id-check');
  await page.getByTestId('puzzle-nav-themes').click();
  await page.waitForURL((u) => u.pathname === '/training/themes');
  await page.getByTestId('puzzle-group-mates').waitFor();
  assert.ok((await page.locator('[data-testid^="puzzle-theme-"]').count()) >= 70);
  await page.getByTestId('puzzle-theme-fork').click();
  await page.waitForURL((u) => u.pathname === '/training/fork');
  const p = await shownPuzzle(page);
  assert.ok(p.puzzle.themes.includes('fork'), p.puzzle.themes.join(' '));
  assert.equal(await page.getByTestId('puzzle-angle').inputValue(), 'fork');
  // The difficulty is a choice remembered in the browser.
  await page.getByTestId('puzzle-difficulty').selectOption('easiest');
  await playable(page);
  await page.reload();
  assert.equal(await page.getByTestId('puzzle-difficulty').inputValue(), 'easiest');
  await done(context, page);
});

test('an account trains rated: the rating change is shown, and the dashboard counts it', { skip: skip() }, async () => {
  const { context, page } = await newPage();
  const name = username();
  await page.goto('/signup');
  await page.getByTestId('username').fill(name);
  await page.getByTestId('password').fill(`amber-lantern-${randomBytes(6).toString('hex')}-orbit`);
  await page.getByTestId('submit').click();
  await page.waitForURL((u) => u.pathname === '/');
  await page.getByTestId('nav-user').filter({ hasText: name }).waitFor();
  await page.getByTestId('puzzles-link').click();
  const p = await shownPuzzle(page);
  await page.getByTestId('puzzle-my-rating').waitFor();
  await solve(page, p);
  // The rating change, or whatever the page shows instead (an error, unrated), said in the failure.
  const diff = page.getByTestId('puzzle-rating-diff');
  await page.locator('[data-testid="puzzle-rating-diff"], [data-testid="puzzle-error"], [data-testid="puzzle-unrated"]').first().waitFor();
  assert.equal(await diff.count(), 1, `no rating change; the page shows: ${await page.locator('main').innerText()}`);
  assert.match((await diff.textContent()) ?? '', /\(\+\d+\)/);
  await shot(page, 'puzzle-rated');
  await page.getByTestId('puzzle-nav-dashboard').click();
  await page.waitForURL((u) => u.pathname === '/training/dashboard');
  await page.getByTestId('dashboard-nb').filter({ hasText: '1' }).waitFor();
  await page.getByTestId('dashboard-first').filter({ hasText: '1' }).waitFor();
  assert.equal(await page.getByTestId('dashboard-theme').count(), p.puzzle.themes.length);
  await page.getByTestId('dashboard-days-7').click();
  await page.waitForURL((u) => u.search === '?days=7');
  await page.getByTestId('dashboard-nb').filter({ hasText: '1' }).waitFor();
  await shot(page, 'puzzle-dashboard');
  await done(context, page);
});

test('a streak grows with each solved puzzle and ends on a mistake', { skip: skip() }, async () => {
  const { context, page } = await newPage();
  await page.goto('/streak');
  await page.getByTestId('streak-score').filter({ hasText: '0' }).waitFor();
  const first = await shownPuzzle(page);
  await solve(page, first);
  await page.getByTestId('streak-score').filter({ hasText: '1' }).waitFor();
  // The next puzzle comes by itself.
  await page.waitForFunction((id) => {
    const p = document.querySelector('[data-testid="puzzle-board"][data-state="play"]');
    return p && p.getAttribute('data-puzzle-id') !== id;
  }, first.puzzle.id);
  const second = await shownPuzzle(page);
  const at = await playable(page);
  await move(page, await wrongMove(page, second, at.fen));
  await page.getByTestId('streak-over').waitFor();
  assert.equal(await page.getByTestId('streak-score').textContent(), '1');
  await page.getByTestId('streak-best').filter({ hasText: '1' }).waitFor();
  await shot(page, 'puzzle-streak-over');
  // A new streak starts from 0; the best stays.
  await page.getByTestId('streak-again').click();
  await page.getByTestId('streak-score').filter({ hasText: '0' }).waitFor();
  await playable(page);
  await page.getByTestId('streak-best').filter({ hasText: '1' }).waitFor();
  await done(context, page);
});

test('a storm starts its clock with the first move and counts a solved puzzle', { skip: skip() }, async () => {
  const { context, page } = await newPage({ viewport: PHONE });
  await page.goto('/storm');
  const clock = page.getByTestId('storm-clock');
  await clock.filter({ hasText: '3:00' }).waitFor();
  await page.getByTestId('storm-ready').waitFor();
  const p = await shownPuzzle(page);
  await page.locator(BOARD).scrollIntoViewIfNeeded();
  await solve(page, p);
  await page.getByTestId('storm-score').filter({ hasText: '1' }).waitFor();
  await page.locator('[data-testid="storm-clock"][data-state="play"]').waitFor();
  await page.waitForFunction(() => {
    const text = document.querySelector('[data-testid="storm-clock"]')?.textContent ?? '';
    return /^[0-2]:[0-5]\d$/.test(text);
  });
  // The next puzzle follows at once.
  await page.waitForFunction((id) => {
    const b = document.querySelector('[data-testid="puzzle-board"][data-state="play"]');
    return b && b.getAttribute('data-puzzle-id') !== id;
  }, p.puzzle.id);
  // A mistake costs 10 seconds.
  const before = await clock.textContent();
  const q = await shownPuzzle(page);
  const at = await playable(page);
  await move(page, await wrongMove(page, q, at.fen));
  await page.getByTestId('storm-flash').filter({ hasText: '10' }).waitFor();
  const seconds = (s: string) => Number(s.split(':')[0]) * 60 + Number(s.split(':')[1]);
  assert.ok(seconds((await clock.textContent())!) <= seconds(before!) - 9, `${before} then ${await clock.textContent()}`);
  assert.equal(await page.getByTestId('storm-score').textContent(), '1');
  await shot(page, 'puzzle-storm-phone');
  await done(context, page);
});

test('the puzzle pages in French', { skip: skip() }, async () => {
  const { context, page } = await newPage();
  await page.goto('/training');
  await playable(page);
  await selectLang(page, 'fr');
  await page.getByTestId('puzzle-feedback').filter({ hasText: 'trouvez le meilleur coup' }).waitFor();
  assert.equal(await page.getByTestId('puzzles-link').textContent(), 'Problèmes');
  await page.goto('/training/themes');
  assert.equal(await page.getByTestId('puzzle-theme-fork').textContent(), 'Fourchette');
  await shot(page, 'puzzle-themes-fr');
  await selectLang(page, 'en');
  await done(context, page);
});

test('the tactics page of Learn links to its puzzle themes', { skip: skip() }, async () => {
  const { context, page } = await newPage();
  await page.goto('/learn/tactics');
  await page.getByTestId('learn-puzzles').waitFor();
  await page.getByTestId('learn-puzzle-pin').click();
  await page.waitForURL((u) => u.pathname === '/training/pin');
  const p = await shownPuzzle(page);
  assert.ok(p.puzzle.themes.includes('pin'), p.puzzle.themes.join(' '));
  await done(context, page);
});
