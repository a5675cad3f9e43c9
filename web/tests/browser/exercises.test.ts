//! The Learn exercises in a real Chromium against the real server: the
//! worked example replayed, a K+Q vs K drill won by clicking (the winning
//! moves found through the drill API's distance to mate, not a stored list),
//! checks/captures/threats answered completely and then with a capture
//! left out, a mate/stalemate pair judged, a puzzle solved with hints;
//! screenshots at desktop and phone sizes.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { Page } from 'playwright-core';
import { closeBrowser, done, newPage, PHONE, shot } from './helpers.js';

after(closeBrowser);

const BOARD = '[data-testid="exercise-board"]';

/** A fresh page whose console errors are kept; `finish` closes it, failing on any error not `allowed`. */
async function exercisePage(viewport?: { width: number; height: number }) {
  const { context, page } = await newPage(viewport ? { viewport } : {});
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  const finish = async (allowed: RegExp | null = null) => {
    // The app shell asks GET /api/account, which answers 401 to an anonymous visitor.
    const unexpected = errors.filter((e) => !/status of 401 \(Unauthorized\)/.test(e) && !(allowed && allowed.test(e)));
    await done(context, page);
    assert.deepEqual(unexpected, [], 'console errors');
  };
  return { context, page, finish };
}

/** Calls the server from inside the page (same origin, this context's player). */
async function api<T>(page: Page, path: string, body?: unknown): Promise<{ status: number; json: T }> {
  return page.evaluate(
    async ([p, b]) => {
      const res = await fetch(p as string, b === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) });
      return { status: res.status, json: await res.json() };
    },
    [path, body] as const,
  ) as Promise<{ status: number; json: T }>;
}

interface Inspection {
  valid: boolean;
  checks: string[];
  captures: string[];
  threats: { uci: string; kind: string }[];
  moves: { uci: string; san: string; fen: string }[];
}

/** Opens an exercise page and waits for its board. */
async function openExercise(page: Page, slug: string): Promise<void> {
  await page.goto(`/learn/${slug}`);
  await page.locator(`${BOARD} cg-board`).waitFor();
}

/** The exercise board's FEN once it accepts moves. */
async function movableFen(page: Page): Promise<string> {
  await page.locator(`${BOARD}[data-movable="true"]`).waitFor();
  return (await page.locator(BOARD).getAttribute('data-fen'))!;
}

/** Screen point of `square` on the exercise board (its orientation respected). */
async function point(page: Page, square: string): Promise<{ x: number; y: number }> {
  await page.locator(BOARD).scrollIntoViewIfNeeded();
  const box = await page.locator(`${BOARD} cg-board`).boundingBox();
  if (!box) throw new Error('exercise board not visible');
  const black = (await page.locator(`${BOARD}.orientation-black`).count()) > 0;
  const file = square.charCodeAt(0) - 97;
  const rank = Number(square[1]) - 1;
  const col = black ? 7 - file : file;
  const row = black ? rank : 7 - rank;
  return { x: box.x + ((col + 0.5) * box.width) / 8, y: box.y + ((row + 0.5) * box.height) / 8 };
}

async function clickSquare(page: Page, square: string): Promise<void> {
  const p = await point(page, square);
  await page.mouse.click(p.x, p.y);
}

/** Plays a UCI move on the exercise board by clicking (choosing the promotion piece if any). */
async function play(page: Page, uci: string): Promise<void> {
  await clickSquare(page, uci.slice(0, 2));
  await clickSquare(page, uci.slice(2, 4));
  const promo = uci[4];
  if (promo) await page.getByTestId(`promotion-${{ q: 'queen', r: 'rook', b: 'bishop', n: 'knight' }[promo]}`).click();
}

async function feedback(page: Page): Promise<string> {
  return (await page.getByTestId('exercise-feedback').textContent()) ?? '';
}

async function waitFeedback(page: Page, re: RegExp): Promise<string> {
  await page.waitForFunction((src) => new RegExp(src).test(document.querySelector('[data-testid="exercise-feedback"]')?.textContent ?? ''), re.source, { timeout: 30_000 });
  return feedback(page);
}

/** The server's done marks once they include `key` (the page sends its marks without waiting for them; 10 s at most). */
async function serverDone(page: Page, key: string): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const done = (await api<{ done: string[] }>(page, '/api/learn/progress')).json.done;
    if (done.includes(key) || Date.now() > deadline) return done;
    await page.waitForTimeout(100);
  }
}

test('exercise: the worked example is replayed from memory, a wrong move is pointed out, done at the mate', async () => {
  const { page, finish } = await exercisePage();
  await openExercise(page, 'ex-replay');
  const game = ['e2e4', 'e7e5', 'f1c4', 'b8c6', 'd1h5', 'g8f6', 'h5f7'];
  await movableFen(page);
  // A legal move that is not the game's.
  await play(page, 'd2d4');
  assert.match(await waitFeedback(page, /not the one played/), /d4/);
  for (const [i, uci] of game.entries()) {
    const before = await movableFen(page);
    await play(page, uci);
    if (i < game.length - 1) await page.waitForFunction((f) => document.querySelector('[data-testid="exercise-board"]')?.getAttribute('data-fen') !== f, before);
  }
  assert.match(await waitFeedback(page, /Checkmate/), /whole game/);
  assert.equal(await page.getByTestId('replay-progress').textContent(), 'Moves played: 7 of 7');
  await page.getByTestId('exercise-done').waitFor();
  const progress = await serverDone(page, 'ex:replay');
  assert.ok(progress.includes('ex:replay'), JSON.stringify(progress));
  // With this browser's copy emptied, the server's copy brings the done mark back on the next visit.
  await page.evaluate(() => localStorage.setItem('plyyard.learn.done', '[]'));
  await page.reload();
  await page.getByTestId('exercise-done').waitFor();
  assert.deepEqual(JSON.parse((await page.evaluate(() => localStorage.getItem('plyyard.learn.done'))) ?? '[]'), ['ex:replay']);
  await shot(page, 'exercise-replay-desktop');
  await finish();
});

test('exercise: a K+Q vs K drill is won by clicking; the counter and the fewest moves are shown', async () => {
  const { page, finish } = await exercisePage();
  await openExercise(page, 'ex-mate-drills');
  const list = (await api<{ id: string; kind: string; fen: string; fewest: number }[]>(page, '/api/drills')).json;
  const drill = list.find((d) => d.kind === 'kqk')!;
  assert.ok(drill, 'a K+Q vs K drill is listed');
  await page.getByTestId(`drill-${drill.id}`).click();
  let moves = 0;
  for (;;) {
    const fen = await movableFen(page);
    assert.equal(await page.getByTestId('drill-moves').getAttribute('data-count'), String(moves));
    const legal = (await api<Inspection>(page, '/api/positions/inspect', { fen })).json.moves;
    // Keep the first move that mates or brings the mate one move nearer.
    let best: string | null = null;
    for (const m of legal) {
      const r = (await api<{ status: string; failed: boolean; mate_in: number | null; mate_in_before: number }>(page, '/api/drills/move', { fen, uci: m.uci })).json;
      if (r.status === 'checkmate' || (!r.failed && r.mate_in !== null && r.mate_in < r.mate_in_before)) {
        best = m.uci;
        break;
      }
    }
    assert.ok(best, `no move makes progress from ${fen}`);
    await play(page, best);
    moves++;
    await page.waitForFunction((n) => document.querySelector('[data-testid="drill-moves"]')?.getAttribute('data-count') === String(n), moves);
    if (/Checkmate/.test(await feedback(page))) break;
    assert.ok(moves <= drill.fewest, `more moves (${moves}) than the fewest possible (${drill.fewest})`);
  }
  const text = await feedback(page);
  assert.match(text, new RegExp(`fewest moves possible against best defence: ${drill.fewest}`), text);
  assert.equal(moves, drill.fewest);
  assert.match((await page.getByTestId('drill-moves').textContent()) ?? '', new RegExp(`Moves played: ${moves}`));
  await page.getByTestId('exercise-done').waitFor();
  await shot(page, 'exercise-drill-desktop');
  await finish();
});

test('exercise: checks/captures/threats shows every move, counts what is missing without naming it, accepts a complete answer; replies to two candidates', async () => {
  const { page, finish } = await exercisePage();
  await openExercise(page, 'ex-checks-captures-threats');
  const fen = (await page.locator(BOARD).getAttribute('data-fen'))!;
  const facts = (await api<Inspection>(page, '/api/positions/inspect', { fen })).json;
  assert.ok(facts.captures.length > 0, `the exercise position ${fen} has a capture to leave out`);
  await page.getByTestId('cct-move').first().waitFor();
  // The list does not give the answers away: no move is written with a check, capture or mate mark.
  const names = await page.getByTestId('cct-move-name').allTextContents();
  assert.equal(names.length, facts.moves.length);
  for (const n of names) assert.doesNotMatch(n, /[x+#×:]/, n);
  // Every row shows at once: no box scrolling a few rows at a time.
  const wrap = await page.locator('.ex-moves-wrap').evaluate((el) => ({ scroll: el.scrollHeight, client: el.clientHeight }));
  assert.ok(wrap.scroll <= wrap.client + 1, `the list scrolls inside a box: ${wrap.scroll}px in ${wrap.client}px`);

  // Checking an empty answer counts what is missing and names none of it.
  await page.getByTestId('exercise-check').click();
  const empty = await waitFeedback(page, /not ticked yet/);
  assert.ok(empty.includes(`Captures you have not ticked yet: ${facts.captures.length}.`), empty);
  for (const u of [...facts.checks, ...facts.captures]) {
    const m = facts.moves.find((x) => x.uci === u)!;
    assert.ok(!empty.includes(m.san), `"${m.san}" given away: ${empty}`);
  }
  for (const u of facts.checks) await page.getByTestId(`cct-check-${u}`).check();
  for (const u of facts.captures) await page.getByTestId(`cct-capture-${u}`).check();
  for (const sq of new Set(facts.threats.map((th) => th.uci.slice(2, 4)))) await clickSquare(page, sq);
  await page.getByTestId('exercise-check').click();
  assert.match(await waitFeedback(page, /Complete and correct/), /every capture/);

  // Leave one capture out: the exercise counts it without naming it.
  const left = facts.captures[0]!;
  const san = facts.moves.find((m) => m.uci === left)!.san;
  await page.getByTestId(`cct-capture-${left}`).uncheck();
  await page.getByTestId('exercise-check').click();
  const text = await waitFeedback(page, /Captures you have not ticked yet: 1\./);
  assert.ok(!text.includes(san), text);
  assert.ok(!/Complete/.test(text));

  // A complete answer again, then two candidate moves and the engine's replies.
  await page.getByTestId(`cct-capture-${left}`).check();
  await page.getByTestId('exercise-check').click();
  await waitFeedback(page, /Complete and correct/);
  await page.getByTestId('cct-candidate-1').selectOption(facts.moves[0]!.uci);
  await page.getByTestId('cct-candidate-2').selectOption(facts.moves[1]!.uci);
  await page.getByTestId('cct-replies').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="cct-reply"]').length === 2, undefined, { timeout: 60_000 });
  for (const li of await page.getByTestId('cct-reply').allTextContents()) assert.match(li, /strongest reply|ends the game/, li);
  await shot(page, 'exercise-cct-desktop');
  await finish();
});

/** Waits until the builder's board shows `placement`. */
async function waitPlacement(page: Page, placement: string): Promise<void> {
  await page.waitForFunction((p) => document.querySelector('[data-testid="exercise-board"]')?.getAttribute('data-fen') === p, placement);
}

/** Places `piece` (e.g. "bK") on each square with the palette. */
async function place(page: Page, piece: string, ...squares: string[]): Promise<void> {
  await page.getByTestId(`palette-${piece}`).click();
  for (const sq of squares) await clickSquare(page, sq);
}

/** Builds a checkmate (Ka8 against Qb6, Rh8, Kh1, Black to move) and the stalemate without the rook, and asks for the verdict. */
async function buildPair(page: Page): Promise<void> {
  await place(page, 'bK', 'a8');
  await place(page, 'wQ', 'b6');
  await place(page, 'wK', 'h1');
  await place(page, 'wR', 'h8');
  await page.getByTestId('builder-turn-black').check();
  await waitPlacement(page, 'k6R/8/1Q6/8/8/8/8/7K');
  await page.getByTestId('builder-stalemate').click();
  await page.getByTestId('builder-copy').click();
  await page.getByTestId('palette-erase').click();
  await clickSquare(page, 'h8');
  await waitPlacement(page, 'k7/8/1Q6/8/8/8/8/7K');
  await page.getByTestId('exercise-check').click();
}

test('exercise: the mate/stalemate builder judges a pair one change apart, and one that is not', async () => {
  const { page, finish } = await exercisePage();
  await openExercise(page, 'ex-mate-stalemate');
  await buildPair(page);
  const good = await waitFeedback(page, /Well done|Not yet/);
  assert.match(good, /Checkmate position: legal, checkmate/);
  assert.match(good, /Stalemate position: legal, stalemate/);
  assert.match(good, /the white rook on h8 removed/);
  assert.match(good, /Well done/);
  await page.getByTestId('exercise-done').waitFor();
  await shot(page, 'exercise-mate-stalemate-desktop');

  // Moving the white king too makes two changes.
  await place(page, 'wK', 'g1');
  await page.getByTestId('palette-erase').click();
  await clickSquare(page, 'h1');
  await waitPlacement(page, 'k7/8/1Q6/8/8/8/8/6K1');
  await page.getByTestId('exercise-check').click();
  const bad = await waitFeedback(page, /differ on 3 squares/);
  assert.match(bad, /Not yet/);

  // No black king: the server says the position is illegal.
  await page.getByTestId('palette-erase').click();
  await clickSquare(page, 'a8');
  await waitPlacement(page, '8/8/1Q6/8/8/8/8/6K1');
  await page.getByTestId('exercise-check').click();
  assert.match(await waitFeedback(page, /not a legal position/), /Stalemate position: not a legal position/);
  // The illegal position's 422 is the contract's answer; Chromium logs every 4xx response.
  await finish(/status of 422/);
});

interface StoredPuzzle {
  id: string;
  solution: string[];
}

/** Plays `solution` from the position shown, waiting for each reply. */
async function solve(page: Page, solution: readonly string[]): Promise<void> {
  for (let i = 0; i < solution.length; i += 2) {
    await movableFen(page);
    await play(page, solution[i]!);
    if (i + 2 < solution.length) await waitFeedback(page, /right!/);
  }
}

test('exercise: a puzzle: a wrong move is taken back and gives nothing away, two levels of hint; solved with help it does not count, solved cleanly it does (the server judges)', async () => {
  const { page, finish } = await exercisePage();
  await openExercise(page, 'ex-puzzles');
  await page.getByTestId('puzzle-info').waitFor();
  const id = (await page.getByTestId('puzzle-info').getAttribute('data-id'))!;
  const shipped = JSON.parse(readFileSync(join(process.env.PLYYARD_WEB ?? process.cwd(), '..', 'content', 'puzzles.json'), 'utf8')) as StoredPuzzle[];
  const puzzle = shipped.find((p) => p.id === id)!;
  assert.ok(puzzle, `puzzle ${id} is in content/puzzles.json`);
  const fen = await movableFen(page);

  // A wrong first move is taken back: the solution is not shown, no arrow, the hint is still there.
  const legal = (await api<Inspection>(page, '/api/positions/inspect', { fen })).json.moves;
  const wrong = legal.find((m) => m.uci !== puzzle.solution[0])!;
  const key = legal.find((m) => m.uci === puzzle.solution[0])!;
  await play(page, wrong.uci);
  const miss = await waitFeedback(page, /not the solution/);
  assert.ok(miss.includes(`${wrong.san} is not the solution`) && !miss.includes(key.san), miss);
  await page.waitForFunction((f) => document.querySelector('[data-testid="exercise-board"][data-movable="true"]')?.getAttribute('data-fen') === f, fen);
  assert.equal(await page.locator(`${BOARD} svg.cg-shapes line`).count(), 0, 'no arrow shows the solution');
  assert.equal(await page.getByTestId('puzzle-hint').isDisabled(), false);

  await page.getByTestId('puzzle-hint').click();
  assert.match(await waitFeedback(page, /Hint/), /piece to move is a/);
  await page.getByTestId('puzzle-hint').click();
  const hint2 = await waitFeedback(page, new RegExp(`on ${puzzle.solution[0]!.slice(0, 2)}`));
  assert.match(hint2, /Hint: move the/);
  assert.ok(await page.getByTestId('puzzle-hint').isDisabled());

  // Solved after help: checkmate, but it does not count; nor does a clean second try (as on lichess).
  await solve(page, puzzle.solution);
  assert.match(await waitFeedback(page, /checkmate/), /does not count as solved/);
  await page.getByTestId('puzzle-retry').click();
  await solve(page, puzzle.solution);
  assert.match(await waitFeedback(page, /checkmate/), /does not count as solved/);
  assert.equal(await page.locator('[data-testid="puzzle-info"] .ex-done').count(), 0);
  let done = await serverDone(page, `puzzle-helped:${id}`);
  assert.ok(done.includes(`puzzle-helped:${id}`) && !done.includes(`puzzle:${id}`), JSON.stringify(done));
  await shot(page, 'exercise-puzzle-desktop');

  // The next puzzle, solved with no wrong move and no hint, counts: the server recorded it.
  await page.getByTestId('puzzle-next').click();
  await page.waitForFunction((old) => document.querySelector('[data-testid="puzzle-info"]')?.getAttribute('data-id') !== old, id);
  const id2 = (await page.getByTestId('puzzle-info').getAttribute('data-id'))!;
  await solve(page, shipped.find((p) => p.id === id2)!.solution);
  assert.match(await waitFeedback(page, /Puzzle solved/), /checkmate/);
  await page.locator('[data-testid="puzzle-info"] .ex-done').waitFor();
  // One puzzle of the list does not make the exercise done; the count says how far along it is.
  await page.getByTestId('puzzle-solved-count').filter({ hasText: `Solved: 1 of ${shipped.length}` }).waitFor();
  assert.equal(await page.getByTestId('exercise-done').count(), 0, 'not done after one puzzle');
  await page.reload();
  await page.getByTestId('puzzle-info').waitFor();
  await page.getByTestId('puzzle-solved-count').filter({ hasText: `Solved: 1 of ${shipped.length}` }).waitFor();
  assert.equal(await page.getByTestId('exercise-done').count(), 0, 'nor after a reload');
  done = (await api<{ done: string[] }>(page, '/api/learn/progress')).json.done;
  assert.ok(done.includes(`puzzle:${id2}`), JSON.stringify(done));

  // The client's word is not taken: a "solved" key sent by the page is refused.
  const claim = await api<{ error: { message: string } }>(page, '/api/learn/progress', { done: [`puzzle:${id}`] });
  assert.equal(claim.status, 400);
  assert.match(claim.json.error.message, /recorded by the server/);
  await finish(/status of 400/);
});

test('exercises: every exercise page on a phone', async () => {
  const { page, finish } = await exercisePage(PHONE);
  for (const slug of ['ex-replay', 'ex-mate-stalemate', 'ex-checks-captures-threats', 'ex-mate-drills', 'ex-puzzles']) {
    await openExercise(page, slug);
    const box = await page.locator(`${BOARD} cg-board`).boundingBox();
    assert.ok(box && box.width > 250 && box.x >= 0 && box.x + box.width <= PHONE.width, `${slug}: board ${JSON.stringify(box)}`);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= PHONE.width, `${slug}: the page scrolls sideways (${wide}px)`);
    await shot(page, `exercise-${slug.slice(3)}-phone`);
  }
  await finish();
});

test('exercises: each exercise speaks French, Russian and Romanian', async () => {
  const titles: Record<string, string[]> = {
    fr: ['Rejouez l’exemple commenté', 'Construisez un mat et un pat', 'Échecs, prises, menaces', 'Exercices de mat contre le moteur', 'Mat en un, mat en deux'],
    ru: ['Повторите разобранную партию', 'Постройте мат и пат', 'Шахи, взятия, угрозы', 'Тренировка матов против движка', 'Мат в один ход, мат в два хода'],
    ro: ['Rejucați exemplul comentat', 'Construiți un mat și un pat', 'Șahuri, capturi, amenințări', 'Exerciții de mat contra motorului', 'Mat într-o mutare, mat în două'],
  };
  const slugs = ['ex-replay', 'ex-mate-stalemate', 'ex-checks-captures-threats', 'ex-mate-drills', 'ex-puzzles'];
  for (const [lang, names] of Object.entries(titles)) {
    const { context, page } = await newPage({ locale: lang });
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && !/status of 401/.test(m.text())) errors.push(m.text());
    });
    for (const [i, slug] of slugs.entries()) {
      await openExercise(page, slug);
      assert.equal(await page.locator('.ex-title').textContent(), names[i], `${lang} ${slug}`);
      assert.equal(await page.locator('html').getAttribute('lang'), lang);
    }
    await done(context, page);
    assert.deepEqual(errors, [], `${lang}: console errors`);
  }
});

test('exercises: progress made before signing up follows the account to another browser', async () => {
  const name = `learner_${randomBytes(4).toString('hex')}`;
  const password = `amber-lantern-${randomBytes(6).toString('hex')}-orbit`;
  const a = await exercisePage();
  await openExercise(a.page, 'ex-mate-stalemate');
  await buildPair(a.page);
  await waitFeedback(a.page, /Well done/);
  await a.page.getByTestId('exercise-done').waitFor();
  assert.equal((await api(a.page, '/api/account/signup', { username: name, password })).status, 201);
  await a.finish(/status of 422/);

  const b = await exercisePage();
  await b.page.goto('/learn');
  assert.equal((await api(b.page, '/api/account/login', { username: name, password })).status, 200);
  await openExercise(b.page, 'ex-mate-stalemate');
  await b.page.getByTestId('exercise-done').waitFor();
  await openExercise(b.page, 'ex-replay');
  assert.equal(await b.page.getByTestId('exercise-done').count(), 0, 'only what was done is marked');
  await b.finish();
});
