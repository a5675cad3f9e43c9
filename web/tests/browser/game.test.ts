//! Playing the computer in a real Chromium against the real server.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, test } from 'node:test';
import {
  apiGame,
  boardPieces,
  clickMove,
  closeBrowser,
  done,
  dragMove,
  moveTexts,
  newPage,
  PHONE,
  selectLang,
  shot,
  squarePoint,
  startGame,
  waitForOurTurn,
  waitForPlies,
} from './helpers.js';

after(closeBrowser);

test('as White at Beginner: click moves, legal-move dots, the computer replies', async () => {
  const { context, page } = await newPage();
  await startGame(page, { level: 'beginner', color: 'white' });
  await waitForOurTurn(page);
  assert.equal(await page.locator('.cg-wrap.orientation-white').count(), 1);

  // Selecting the e2 pawn shows its two destinations as dots.
  const e2 = await squarePoint(page, 'e2');
  await page.mouse.click(e2.x, e2.y);
  await page.locator('cg-board square.move-dest:visible').first().waitFor();
  assert.equal(await page.locator('cg-board square.move-dest:visible').count(), 2);
  const e4 = await squarePoint(page, 'e4');
  await page.mouse.click(e4.x, e4.y);

  await waitForPlies(page, 2);
  const moves = await moveTexts(page);
  assert.equal(moves[0], 'e4');
  // Screen readers hear the computer's reply.
  await page.getByTestId('announcer').filter({ hasText: `The computer played ${moves[1]}` }).waitFor({ state: 'attached' });
  assert.ok(moves[1] && moves[1].length >= 2, `computer replied ${moves[1]}`);
  await waitForOurTurn(page);
  // The last move is highlighted on the board.
  assert.equal(await page.locator('cg-board square.last-move:visible').count(), 2);

  // A second move, dragged this time.
  await dragMove(page, 'g1', 'f3');
  await waitForPlies(page, 4);
  assert.equal((await moveTexts(page))[2], 'Nf3');
  await waitForOurTurn(page);
  await page.getByTestId('move-input').focus();
  await shot(page, 'game-desktop');
  await done(context, page);
});

test('with a clock: both clocks show, run after two moves, the computer presses its own; undo keeps two plies', async () => {
  const { context, page } = await newPage();
  const id = await startGame(page, { level: 'beginner', color: 'white', clock: '3+2' });
  await page.getByTestId('clock-bottom').filter({ hasText: '3:00' }).waitFor();
  await page.getByTestId('clock-top').filter({ hasText: '3:00' }).waitFor();
  await page.getByTestId('first-move').waitFor();
  await waitForOurTurn(page);
  await clickMove(page, 'e2', 'e4');
  await waitForPlies(page, 2);
  await waitForOurTurn(page);
  // Our clock runs from the computer's first move on.
  await page.locator('[data-testid="clock-bottom"].running').waitFor();
  assert.equal(await page.getByTestId('undo').isDisabled(), true);
  await clickMove(page, 'g1', 'f3');
  await waitForPlies(page, 4);
  await waitForOurTurn(page);
  const g = await apiGame(context, id);
  assert.equal(g.kind, 'computer');
  assert.equal(g.table, null);
  assert.equal(g.rated, false);
  assert.equal(g.clock?.initial_ms, 180_000);
  assert.equal(g.clock?.running, 'white');
  // The computer pressed its clock after thinking: its increment came with it.
  assert.ok(g.clock && g.clock.black_ms > 178_000 && g.clock.black_ms <= 182_000, JSON.stringify(g.clock));
  await shot(page, 'game-clock-desktop');
  await page.getByTestId('undo').click();
  await waitForPlies(page, 2);
  assert.equal(await page.getByTestId('undo').isDisabled(), true);
  // The form's clock choice in the other languages.
  await page.goto('/');
  for (const [lang, legend, none] of [
    ['fr', 'Pendule', 'Sans pendule'],
    ['ru', 'Часы', 'Без часов'],
    ['ro', 'Ceas', 'Fără ceas'],
  ] as const) {
    await selectLang(page, lang);
    await page.locator('legend', { hasText: legend }).first().waitFor();
    await page.locator('label.chip', { hasText: none }).waitFor();
  }
  assert.equal(await page.getByTestId('clock-3+2').isChecked(), true, 'the last clock is remembered');
  await selectLang(page, 'en');
  await done(context, page);
});

test('as Black the computer moves first and the board is flipped', async () => {
  const { context, page } = await newPage();
  await startGame(page, { level: 'beginner', color: 'black' });
  await waitForPlies(page, 1);
  await waitForOurTurn(page);
  assert.equal(await page.locator('.cg-wrap.orientation-black').count(), 1);
  const id = new URL(page.url()).pathname.split('/').pop()!;
  const state = await apiGame(context, id);
  assert.equal(state.you, 'black');
  assert.equal(state.moves.length, 1);
  // Undo is not possible yet: the only move is the computer's.
  assert.equal(await page.getByTestId('undo').isDisabled(), true);
  // Flip shows White at the bottom (the player strips follow), and back.
  assert.match((await page.getByTestId('you').textContent()) ?? '', /You/);
  await page.getByTestId('flip-board').click();
  assert.equal(await page.locator('.cg-wrap.orientation-white').count(), 1);
  assert.match((await page.getByTestId('opponent').textContent()) ?? '', /You/);
  assert.match((await page.getByTestId('you').textContent()) ?? '', /Computer/);
  await page.getByTestId('flip-board').click();
  assert.equal(await page.locator('.cg-wrap.orientation-black').count(), 1);
  await done(context, page);
});

test('typed moves, Undo restores the previous position, reload keeps the game', async () => {
  const { context, page } = await newPage();
  const id = await startGame(page, { level: 'beginner', color: 'white' });
  await waitForOurTurn(page);
  const input = page.getByTestId('move-input');
  // The input suggests the twenty legal first moves.
  assert.equal(await page.locator('[data-testid="legal-moves"] option').count(), 20);
  assert.equal(await page.locator('[data-testid="legal-moves"] option[value="Nf3"]').count(), 1);

  await input.fill('e4');
  await input.press('Enter');
  await waitForPlies(page, 2);
  await waitForOurTurn(page);
  const before = await apiGame(context, id);

  // An impossible move is refused on the client with a message; nothing is sent.
  await input.fill('Qh8');
  await input.press('Enter');
  await page.getByTestId('move-feedback').filter({ hasText: 'Qh8' }).waitFor();
  assert.equal((await apiGame(context, id)).moves.length, 2);

  await input.fill('Nf3');
  await input.press('Enter');
  await waitForPlies(page, 4);
  await waitForOurTurn(page);
  assert.equal((await moveTexts(page))[2], 'Nf3');

  await page.getByTestId('undo').click();
  await waitForPlies(page, 2);
  await waitForOurTurn(page);
  const undone = await apiGame(context, id);
  assert.equal(undone.fen, before.fen);
  assert.deepEqual(undone.moves, before.moves);

  // Undo again: back to the start.
  await page.getByTestId('undo').click();
  await waitForPlies(page, 0);
  assert.equal(await page.getByTestId('undo').isDisabled(), true);

  await clickMove(page, 'd2', 'd4');
  await waitForPlies(page, 2);
  await waitForOurTurn(page);
  const shown = await moveTexts(page);
  await page.reload();
  await waitForPlies(page, 2);
  assert.deepEqual(await moveTexts(page), shown);
  assert.equal(new URL(page.url()).pathname, `/game/${id}`);
  await waitForOurTurn(page);
  await done(context, page);
});

test('resign asks for confirmation, then shows the result; PGN downloads', async () => {
  const { context, page } = await newPage();
  const id = await startGame(page, { level: 'beginner', color: 'white' });
  await waitForOurTurn(page);
  await clickMove(page, 'e2', 'e4');
  await waitForPlies(page, 2);
  await waitForOurTurn(page);
  const san = await moveTexts(page);

  await page.getByTestId('resign').click();
  await page.getByTestId('resign-dialog').waitFor();
  await page.getByTestId('resign-cancel').click();
  assert.equal(await page.getByTestId('resign-dialog').isHidden(), true);
  assert.equal((await apiGame(context, id)).status, 'ongoing');

  await page.getByTestId('resign').click();
  await page.getByTestId('resign-confirm').click();
  await page.getByTestId('result').waitFor();
  assert.equal(await page.getByTestId('result-headline').textContent(), 'You lost');
  assert.equal(await page.getByTestId('result-reason').textContent(), 'by resignation');
  const state = await apiGame(context, id);
  assert.equal(state.result, '0-1');
  assert.equal(state.reason, 'resignation');
  assert.equal(await page.getByTestId('resign').isDisabled(), true);
  assert.equal(await page.getByTestId('move-form').isHidden(), true);
  await shot(page, 'game-result-desktop');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-pgn').click()]);
  const path = await download.path();
  const pgn = readFileSync(path, 'utf8');
  assert.match(pgn, /\[Result "0-1"\]/);
  assert.match(pgn, /\[White "[^"]+"\]/);
  assert.match(pgn, /\[Black "[^"]+"\]/);
  assert.ok(pgn.includes(`1. e4 ${san[1]}`), pgn);
  assert.match(pgn.trim(), /0-1$/);
  assert.match(download.suggestedFilename(), /\.pgn$/);

  // The result survives a reload, and the game is listed on the home page.
  await page.reload();
  await page.getByTestId('result').waitFor();
  await page.getByTestId('home-link').click();
  await page.locator(`[data-testid="recent-game"][data-id="${id}"]`).waitFor();
  await done(context, page);
});

test('promotion picker: asked every time, cancel restores, choice is played', async () => {
  const { context, page } = await newPage();
  // Start from a position through the form's FEN field.
  await page.goto('/');
  await page.getByTestId('variant-standard').check();
  await page.getByTestId('color-white').check();
  await page.getByTestId('start-fen-toggle').click();
  await page.getByTestId('start-fen').fill('not a position');
  await page.getByTestId('new-game-submit').click();
  await page.getByTestId('new-game-error').filter({ hasText: 'FEN' }).waitFor();
  // Shaped like a FEN, but no kings: the server refuses it and the form says so.
  await page.getByTestId('start-fen').fill('8/8/8/8/8/8/8/8 w - - 0 1');
  await page.getByTestId('new-game-error').evaluate((el) => (el.textContent = ''));
  await page.getByTestId('new-game-submit').click();
  await page.getByTestId('new-game-error').filter({ hasText: 'FEN' }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/');
  await page.getByTestId('start-fen').fill('8/P6k/8/8/8/8/7P/K7 w - - 0 1');
  await page.getByTestId('new-game-submit').click();
  await page.waitForURL(/\/game\/[^/]+$/);
  const game = { id: new URL(page.url()).pathname.split('/').pop()! };
  assert.equal((await apiGame(context, game.id)).fen, '8/P6k/8/8/8/8/7P/K7 w - - 0 1');
  await waitForOurTurn(page);

  await clickMove(page, 'a7', 'a8');
  await page.getByTestId('promotion').waitFor();
  for (const role of ['queen', 'rook', 'bishop', 'knight']) await page.getByTestId(`promotion-${role}`).waitFor();
  await shot(page, 'promotion-desktop');
  await page.getByTestId('promotion-cancel').click();
  assert.equal(await page.getByTestId('promotion').isHidden(), true);
  assert.equal((await apiGame(context, game.id)).moves.length, 0);

  // Typing the move without a piece asks too.
  await page.getByTestId('move-input').fill('a8');
  await page.getByTestId('move-input').press('Enter');
  await page.getByTestId('promotion').waitFor();
  await page.keyboard.press('Escape');
  assert.equal(await page.getByTestId('promotion').isHidden(), true);

  await dragMove(page, 'a7', 'a8');
  await page.getByTestId('promotion-knight').click();
  await waitForPlies(page, 2);
  assert.equal((await moveTexts(page))[0], 'a8=N');
  const state = await apiGame(context, game.id);
  assert.equal(state.moves[0]!.uci, 'a7a8n');
  const pgn = await (await context.request.get(`/api/games/${game.id}/pgn`)).text();
  assert.match(pgn, /\[SetUp "1"\]/);
  assert.match(pgn, /\[FEN "8\/P6k\/8\/8\/8\/8\/7P\/K7 w - - 0 1"\]/);
  assert.match(pgn, /1\. a8=N/);
  await done(context, page);
});

test('Chess960 with a chosen position number', async () => {
  const { context, page } = await newPage();
  const id = await startGame(page, { level: 'beginner', color: 'white', variant: 'chess960', position: 0 });
  const state = await apiGame(context, id);
  assert.equal(state.fen.split(' ')[0]!.split('/')[7], 'BBQNNRKR');
  await waitForOurTurn(page);
  await done(context, page);
});

test('a bad position number is refused before sending', async () => {
  const { context, page } = await newPage();
  await page.goto('/');
  await page.getByTestId('variant-chess960').check();
  await page.getByTestId('position-chosen').check();
  await page.getByTestId('position-number').fill('960');
  await page.getByTestId('new-game-submit').click();
  await page.getByTestId('new-game-error').filter({ hasText: '959' }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/');
  await done(context, page);
});

test('phone-sized screen: board fits and controls are reachable', async () => {
  const { context, page } = await newPage({ viewport: PHONE });
  await page.goto('/');
  await shot(page, 'home-phone');
  await startGame(page, { level: 'easy', color: 'white' });
  await waitForOurTurn(page);
  const board = await page.locator('cg-board').boundingBox();
  assert.ok(board && board.width <= PHONE.width && board.width >= PHONE.width - 40, `board ${board?.width}`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page scrolls sideways by ${overflow}px`);
  await clickMove(page, 'e2', 'e4');
  await waitForPlies(page, 2);
  await waitForOurTurn(page);
  for (const id of ['undo', 'resign', 'flip-board', 'new-game', 'download-pgn', 'sound-toggle']) {
    assert.equal(await page.getByTestId(id).isVisible(), true, id);
  }
  await shot(page, 'game-phone');
  await done(context, page);
});

test('sound toggle and the New game dialog', async () => {
  const { context, page } = await newPage();
  await startGame(page, { level: 'beginner', color: 'white' });
  const sound = page.getByTestId('sound-toggle');
  const was = await sound.getAttribute('aria-pressed');
  await sound.click();
  assert.notEqual(await sound.getAttribute('aria-pressed'), was);
  await page.reload();
  assert.notEqual(await page.getByTestId('sound-toggle').getAttribute('aria-pressed'), was);

  await page.getByTestId('new-game').click();
  await page.getByTestId('new-game-dialog').waitFor();
  const first = page.url();
  await page.getByTestId('color-black').check();
  await page.getByTestId('new-game-submit').click();
  await page.waitForURL((u) => u.toString() !== first && /\/game\//.test(u.pathname));
  await waitForPlies(page, 1);
  await done(context, page);
});

test('every interactive element has a test id and an accessible name', async () => {
  const { context, page } = await newPage();
  const check = async (where: string) => {
    const bad = await page.evaluate(() => {
      const out: string[] = [];
      for (const el of document.querySelectorAll<HTMLElement>('button, a[href], input, select, textarea, summary')) {
        if (el.closest('[hidden]') || el.getClientRects().length === 0) continue;
        if (el.classList.contains('skip-link')) continue;
        const id = el.getAttribute('data-testid');
        let name = el.getAttribute('aria-label') ?? '';
        if (!name && el.id) name = document.querySelector(`label[for="${el.id}"]`)?.textContent ?? '';
        if (!name) name = el.closest('label')?.textContent ?? '';
        if (!name) name = el.textContent ?? '';
        if (!name) name = el.getAttribute('title') ?? '';
        if (!id || !name.trim()) out.push(el.outerHTML.slice(0, 120));
      }
      return out;
    });
    assert.deepEqual(bad, [], where);
  };
  await page.goto('/');
  await page.getByTestId('new-game-form').waitFor();
  await check('home');
  await startGame(page, { level: 'beginner', color: 'white' });
  await waitForOurTurn(page);
  await check('game');
  await page.getByTestId('resign').click();
  await check('resign dialog');
  await done(context, page);
});

test('an unknown game shows a clear message', async () => {
  const { context, page } = await newPage();
  await page.goto('/game/doesnotexist');
  await page.getByTestId('game-error').waitFor();
  await page.getByTestId('back-home').click();
  await page.getByTestId('new-game-form').waitFor();
  await done(context, page);
});

test('someone else opening the game watches it live, without controls', async () => {
  const player = await newPage();
  const id = await startGame(player.page, { level: 'beginner', color: 'white' });
  await waitForOurTurn(player.page);

  const watcher = await newPage();
  await watcher.page.goto(`/game/${id}`);
  await watcher.page.locator('[data-testid="status"][data-state="spectator"]').waitFor();
  assert.equal(await watcher.page.getByTestId('status').textContent(), 'You are watching this game.');
  for (const hidden of ['undo', 'resign', 'move-form']) {
    assert.equal(await watcher.page.getByTestId(hidden).isHidden(), true, hidden);
  }
  assert.equal(await watcher.page.locator('.cg-wrap.manipulable').count(), 0);

  await clickMove(player.page, 'e2', 'e4');
  await waitForPlies(watcher.page, 2);
  assert.equal((await moveTexts(watcher.page))[0], 'e4');
  const reply = (await moveTexts(watcher.page))[1]!;
  await watcher.page.getByTestId('announcer').filter({ hasText: `Black played ${reply}` }).waitFor({ state: 'attached' });
  assert.equal((await apiGame(watcher.context, id)).you, null);
  await done(player.context, player.page);
  await done(watcher.context, watcher.page);
});

test('a dropped connection shows a notice, reconnects and the game goes on', async () => {
  const { context, page } = await newPage();
  const id = await startGame(page, { level: 'beginner', color: 'white' });
  await waitForOurTurn(page);
  await clickMove(page, 'e2', 'e4');
  await waitForPlies(page, 2);
  await waitForOurTurn(page);

  await context.setOffline(true);
  await page.getByTestId('connection').waitFor({ state: 'visible' });
  await context.setOffline(false);
  await page.getByTestId('connection').waitFor({ state: 'hidden', timeout: 30_000 });

  await clickMove(page, 'd2', 'd4');
  await waitForPlies(page, 4);
  await waitForOurTurn(page);
  assert.equal((await apiGame(context, id)).moves.length, 4);
  await done(context, page);
});

test('FIDE rules: a fifty-move draw is claimed with a button; Ply Yard rules end it by themselves', async () => {
  const { context, page } = await newPage();
  // A hundred half-moves without capture or pawn move: the claim is open at once.
  const fen = '8/8/4k3/8/8/4K3/4R3/8 w - - 100 80';
  await page.goto('/');
  await page.getByTestId('variant-standard').check();
  await page.getByTestId('color-white').check();
  await page.getByTestId('rules-fide').check();
  await page.getByTestId('start-fen-toggle').click();
  await page.getByTestId('start-fen').fill(fen);
  await page.getByTestId('new-game-submit').click();
  await page.waitForURL(/\/game\/[^/]+$/);
  const id = new URL(page.url()).pathname.split('/').pop()!;
  await waitForOurTurn(page);
  assert.match((await page.getByTestId('game-info').textContent()) ?? '', /FIDE rules/);
  await page.getByTestId('claim-fifty_moves').click();
  await page.getByTestId('result').waitFor();
  assert.equal(await page.getByTestId('result-headline').textContent(), 'Draw');
  const state = await apiGame(context, id);
  assert.equal(state.result, '1/2-1/2');
  assert.equal(state.reason, 'fifty_moves');

  // The same position under Ply Yard rules is already drawn: the server refuses it, the form says so.
  await page.goto('/');
  await page.getByTestId('rules-plyyard').check();
  await page.getByTestId('start-fen-toggle').click();
  await page.getByTestId('start-fen').fill(fen);
  await page.getByTestId('new-game-submit').click();
  await page.getByTestId('new-game-error').filter({ hasText: 'FEN' }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/');
  await done(context, page);
});

test('FIDE rules: a draw claimed by announcing the move that makes it', async () => {
  const { context, page } = await newPage();
  const start = async (fen: string) => {
    await page.goto('/');
    await page.getByTestId('variant-standard').check();
    await page.getByTestId('color-white').check();
    await page.getByTestId('rules-fide').check();
    await page.getByTestId('start-fen-toggle').click();
    await page.getByTestId('start-fen').fill(fen);
    await page.getByTestId('new-game-submit').click();
    await page.waitForURL(/\/game\/[^/]+$/);
    await waitForOurTurn(page);
    return new URL(page.url()).pathname.split('/').pop()!;
  };

  // 99 half-moves: the rook move makes 100, and the claim goes with it.
  const id = await start('8/8/4k3/8/8/4K3/4R3/8 w - - 99 80');
  assert.equal(await page.locator('[data-testid^="claim-"][data-testid$="moves"]').count(), 0);
  await page.getByTestId('claim-with-move').check();
  await clickMove(page, 'e2', 'a2');
  await page.getByTestId('result').waitFor();
  const state = await apiGame(context, id);
  assert.deepEqual(state.moves.map((m) => m.uci), ['e2a2']);
  assert.equal(state.reason, 'fifty_moves');
  assert.equal(state.result, '1/2-1/2');

  // Far from any draw: the claim fails, the move is played anyway and the player is told.
  const id2 = await start('8/8/4k3/8/8/4K3/4R3/8 w - - 10 80');
  await page.getByTestId('claim-with-move').check();
  await clickMove(page, 'e2', 'a2');
  await page.getByTestId('move-feedback').filter({ hasText: 'no draw to claim' }).waitFor();
  await waitForPlies(page, 2);
  assert.equal((await apiGame(context, id2)).status, 'ongoing');
  assert.equal(await page.getByTestId('claim-with-move').isChecked(), false);
  await done(context, page);
});

test('check is highlighted; a capture leaving bare kings ends in a draw with its reason', async () => {
  const { context, page } = await newPage();
  await page.goto('/');
  await page.getByTestId('variant-standard').check();
  await page.getByTestId('color-white').check();
  await page.getByTestId('rules-plyyard').check();
  await page.getByTestId('start-fen-toggle').click();
  await page.getByTestId('start-fen').fill('4k3/8/8/8/8/8/4q3/4K3 w - - 0 1');
  await page.getByTestId('new-game-submit').click();
  await page.waitForURL(/\/game\/[^/]+$/);
  await waitForOurTurn(page);
  await page.locator('cg-board square.check').waitFor({ state: 'visible' });
  assert.equal(await page.locator('cg-board square.check:visible').count(), 1);
  assert.match((await page.getByTestId('status').textContent()) ?? '', /Check/);

  await page.getByTestId('move-input').fill('Kxe2');
  await page.getByTestId('move-input').press('Enter');
  await page.getByTestId('result').waitFor();
  assert.equal(await page.getByTestId('result-headline').textContent(), 'Draw');
  assert.equal(await page.getByTestId('result-reason').textContent(), 'neither side can checkmate');
  // The board redraws on the next animation frame (chessground hides unused squares).
  await page.locator('cg-board square.check').waitFor({ state: 'hidden' });
  assert.deepEqual(await moveTexts(page), ['Kxe2']);
  // A draw on the board can still be taken back.
  assert.equal(await page.getByTestId('undo').isEnabled(), true);
  await page.getByTestId('undo').click();
  await waitForPlies(page, 0);
  await waitForOurTurn(page);
  await page.locator('cg-board square.check').waitFor({ state: 'visible' });
  await done(context, page);
});

test('Chess960 castling: dragging the king onto its rook plays O-O', async () => {
  const { context, page } = await newPage();
  await page.goto('/');
  await page.getByTestId('variant-chess960').check();
  await page.getByTestId('color-white').check();
  await page.getByTestId('start-fen-toggle').click();
  await page.getByTestId('start-fen').fill('rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1');
  await page.getByTestId('new-game-submit').click();
  await page.waitForURL(/\/game\/[^/]+$/);
  const id = new URL(page.url()).pathname.split('/').pop()!;
  await waitForOurTurn(page);
  // The king's destinations include its own rooks (castling) as well as c1.
  const b1 = await squarePoint(page, 'b1');
  await page.mouse.click(b1.x, b1.y);
  await page.locator('cg-board square.move-dest:visible').first().waitFor();
  assert.equal(await page.locator('cg-board square.move-dest:visible').count(), 3);
  await page.mouse.click(b1.x, b1.y);

  await dragMove(page, 'b1', 'h1');
  await waitForPlies(page, 2);
  assert.equal((await moveTexts(page))[0], 'O-O');
  const state = await apiGame(context, id);
  assert.equal(state.moves[0]!.uci, 'b1h1');
  assert.equal(state.fen.split(' ')[0]!.split('/')[7], 'R4RK1');
  await done(context, page);
});

test('looking back through the game: click a move, arrow keys, back to the game', async () => {
  const { context, page } = await newPage();
  await startGame(page, { level: 'beginner', color: 'white' });
  await waitForOurTurn(page);
  await clickMove(page, 'e2', 'e4');
  await waitForPlies(page, 2);
  await waitForOurTurn(page);
  await clickMove(page, 'g1', 'f3');
  await waitForPlies(page, 4);
  await waitForOurTurn(page);
  await page.waitForTimeout(300);
  const live = await boardPieces(page);
  assert.equal(live.f3, 'white knight');

  // After 1. e4: the pawn is on e4, the knight still on g1; the board cannot move.
  await page.getByTestId('move').first().click();
  await page.getByTestId('history-note').waitFor();
  await page.waitForTimeout(300);
  let shown = await boardPieces(page);
  assert.equal(shown.e4, 'white pawn');
  assert.equal(shown.e2, undefined);
  assert.equal(shown.g1, 'white knight');
  assert.equal(shown.f3, undefined);
  assert.equal(Object.keys(shown).length, 32);

  // Home shows the start, End the game again.
  await page.keyboard.press('Home');
  await page.waitForTimeout(300);
  shown = await boardPieces(page);
  assert.equal(shown.e2, 'white pawn');
  // The same position in words (the board's text alternative).
  await page.getByTestId('position-text-toggle').click();
  assert.equal(
    await page.getByTestId('position-white').textContent(),
    'White: King e1; Queen d1; Rook a1, h1; Bishop c1, f1; Knight b1, g1; Pawns a2, b2, c2, d2, e2, f2, g2, h2',
  );
  await page.getByTestId('position-text-toggle').focus();
  assert.equal(await page.getByTestId('history-prev').isDisabled(), true);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.waitForTimeout(300);
  assert.equal((await boardPieces(page)).f3, 'white knight');
  assert.equal(await page.getByTestId('history-note').isVisible(), true);
  await page.keyboard.press('End');
  await page.getByTestId('history-note').waitFor({ state: 'hidden' });
  await page.waitForTimeout(300);
  assert.deepEqual(await boardPieces(page), live);
  // Black's replies may have taken the e-pawn: the words follow the board as it is.
  const whitePawns = Object.entries(live)
    .filter(([, p]) => p === 'white pawn')
    .map(([sq]) => sq)
    .sort();
  assert.ok(
    ((await page.getByTestId('position-white').textContent()) ?? '').endsWith(`Knight b1, f3; Pawns ${whitePawns.join(', ')}`),
    await page.getByTestId('position-white').textContent() ?? '',
  );

  // Back through the buttons, then a typed move returns to the game and is played.
  await page.getByTestId('history-first').click();
  await page.getByTestId('history-live').click();
  await page.getByTestId('history-note').waitFor({ state: 'hidden' });
  await page.getByTestId('history-prev').click();
  // (c3 is the one square Black can never reach in two moves, so Nc3 is always legal here.)
  await page.getByTestId('move-input').fill('Nc3');
  await page.getByTestId('move-input').press('Enter');
  await waitForPlies(page, 6);
  assert.equal(await page.getByTestId('history-note').isHidden(), true);
  await done(context, page);
});

test('a spectator hears no sound and gets no audio warning before a gesture, then hears the moves after one click', async () => {
  const player = await newPage();
  const id = await startGame(player.page, { level: 'beginner', color: 'white' });
  const { context, page } = await newPage();
  // Counts the audio contexts the page creates and the tones started on a running one.
  await page.addInitScript(() => {
    const w = window as unknown as { __audio: { contexts: AudioContext[]; tones: number } };
    w.__audio = { contexts: [], tones: 0 };
    const Real = window.AudioContext;
    window.AudioContext = class extends Real {
      constructor(opts?: AudioContextOptions) {
        super(opts);
        w.__audio.contexts.push(this);
      }
      override createOscillator(): OscillatorNode {
        if (this.state === 'running') w.__audio.tones++;
        return super.createOscillator();
      }
    };
  });
  const audioLogs: string[] = [];
  page.on('console', (m) => {
    if (/AudioContext/i.test(m.text())) audioLogs.push(m.text());
  });
  const audio = () => page.evaluate(() => {
    const a = (window as unknown as { __audio: { contexts: AudioContext[]; tones: number } }).__audio;
    return { contexts: a.contexts.length, states: a.contexts.map((c) => c.state), tones: a.tones };
  });
  await page.goto(`/game/${id}`);
  await page.getByTestId('status').filter({ hasText: 'You are watching this game.' }).waitFor();

  // Moves arrive before the spectator has touched the page: silence, quietly.
  await waitForOurTurn(player.page);
  await clickMove(player.page, 'e2', 'e4');
  await waitForPlies(page, 2);
  assert.deepEqual(await audio(), { contexts: 0, states: [], tones: 0 });
  assert.deepEqual(audioLogs, []);

  // One click anywhere: the next moves are heard.
  await page.getByTestId('status').click();
  await waitForOurTurn(player.page);
  await clickMove(player.page, 'd2', 'd4');
  await waitForPlies(page, 4);
  const after = await audio();
  assert.equal(after.contexts, 1);
  assert.deepEqual(after.states, ['running']);
  assert.ok(after.tones > 0, 'the moves after the click were played');
  assert.deepEqual(audioLogs, []);
  await done(context, page);
  await done(player.context, player.page);
});

test('a start FEN refused by the server is refused with its reason', async () => {
  const { context, page } = await newPage();
  await page.goto('/');
  await page.getByTestId('variant-standard').check();
  await page.getByTestId('start-fen-toggle').click();
  const cases: Array<[string, string]> = [
    // Black to move, mated by the queen the king protects.
    ['7k/6Q1/6K1/8/8/8/8/8 b - - 0 1', 'This FEN is not a playable position: the side to move is already mated.'],
    ['7k/8/6QK/8/8/8/8/8 b - - 0 1', 'This FEN is not a playable position: the side to move is stalemated.'],
    ['4k3/8/8/8/8/8/8/4RK2 w - - 0 1', 'This FEN is not a playable position: the side not to move is in check.'],
    ['8/8/8/8/8/8/8/4K3 w - - 0 1', 'This FEN is not a playable position: a king is missing.'],
  ];
  for (const [fen, said] of cases) {
    await page.getByTestId('start-fen').fill(fen);
    await page.getByTestId('new-game-error').evaluate((el) => (el.textContent = ''));
    await page.getByTestId('new-game-submit').click();
    await page.getByTestId('new-game-error').filter({ hasText: 'FEN' }).waitFor();
    assert.equal((await page.getByTestId('new-game-error').textContent())?.trim(), said, fen);
    assert.equal(new URL(page.url()).pathname, '/');
  }
  await done(context, page);
});
