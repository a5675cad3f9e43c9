//! Board configuration is a pure function of the game state.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sampleGame } from './fixtures.js';
import { boardConfig, canMove, canUndo, colorOfPly, isPromotion, toDests } from '../../src/ground.js';

test('our turn: movable with dests, last move and orientation', () => {
  const c = boardConfig(sampleGame(), { orientation: 'black', pending: false });
  assert.equal(c.fen, sampleGame().fen);
  assert.equal(c.orientation, 'black');
  assert.equal(c.turnColor, 'white');
  assert.deepEqual(c.lastMove, ['e7', 'e5']);
  assert.equal(c.check, false);
  assert.equal(c.movable?.color, 'white');
  assert.deepEqual([...(c.movable?.dests ?? new Map()).entries()], [
    ['g1', ['f3', 'h3', 'e2']],
    ['e1', ['e2']],
  ]);
  assert.equal(c.movable?.free, false);
  assert.equal(c.viewOnly, false);
});

test('frozen while the computer thinks, a move is pending, or the game is over', () => {
  for (const [g, pending] of [
    [sampleGame({ thinking: true }), false],
    [sampleGame(), true],
    [sampleGame({ turn: 'black' }), false],
    [sampleGame({ status: 'ended', result: '0-1', reason: 'resignation', dests: {} }), false],
  ] as const) {
    const c = boardConfig(g, { orientation: 'white', pending });
    assert.equal(c.movable?.color, undefined);
    assert.equal(c.movable?.dests?.size, 0);
    assert.equal(canMove(g, pending), false);
  }
});

test('check highlights the side to move; spectators get a view-only board', () => {
  assert.equal(boardConfig(sampleGame({ check: true }), { orientation: 'white', pending: false }).check, 'white');
  const spectator = boardConfig(sampleGame({ you: null }), { orientation: 'white', pending: false });
  assert.equal(spectator.viewOnly, true);
  assert.equal(spectator.movable?.color, undefined);
});

test('rook-castle dests only in Chess960', () => {
  assert.equal(boardConfig(sampleGame(), { orientation: 'white', pending: false }).movable?.rookCastle, false);
  assert.equal(boardConfig(sampleGame({ variant: 'chess960' }), { orientation: 'white', pending: false }).movable?.rookCastle, true);
});

test('toDests drops empty entries', () => {
  assert.deepEqual([...toDests({ a2: ['a3'], b2: [] }).keys()], ['a2']);
});

test('isPromotion only for a pawn reaching the last rank by a legal move', () => {
  const g = sampleGame({ fen: '7k/P7/8/8/8/8/p7/K7 w - - 0 1', dests: { a7: ['a8'], a1: ['b1', 'b2'] } });
  assert.equal(isPromotion(g, 'a7', 'a8'), true);
  assert.equal(isPromotion(g, 'a1', 'b1'), false);
  assert.equal(isPromotion(g, 'a7', 'b8'), false);
});

test('undo is possible once the player has a move on the board', () => {
  assert.equal(canUndo(sampleGame()), true);
  assert.equal(canUndo(sampleGame({ moves: [], ply: 0 })), false);
  // Black whose only move so far is the computer's opening move.
  assert.equal(canUndo(sampleGame({ you: 'black', moves: [{ uci: 'e2e4', san: 'e4' }] })), false);
  assert.equal(canUndo(sampleGame({ status: 'ended', result: '0-1', reason: 'resignation' })), false);
  assert.equal(canUndo(sampleGame({ status: 'ended', result: '0-1', reason: 'checkmate' })), true);
  assert.equal(canUndo(sampleGame({ status: 'ended', result: '1/2-1/2', reason: 'stalemate' })), true);
  assert.equal(canUndo(sampleGame({ you: null })), false);
  assert.equal(colorOfPly('8/8/8/8/8/8/8/K6k b - - 0 1', 0), 'black');
  assert.equal(colorOfPly('8/8/8/8/8/8/8/K6k b - - 0 1', 1), 'white');
});

test('looking back shows an earlier position, view only, with its last move and check', () => {
  const g = sampleGame();
  const at1 = boardConfig(g, { orientation: 'white', pending: false, ply: 1 });
  assert.equal(at1.fen, 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR');
  assert.deepEqual(at1.lastMove, ['e2', 'e4']);
  assert.equal(at1.turnColor, 'black');
  assert.equal(at1.movable?.color, undefined);
  assert.equal(at1.movable?.dests?.size, 0);
  const at0 = boardConfig(g, { orientation: 'black', pending: false, ply: 0 });
  assert.equal(at0.fen, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR');
  assert.equal(at0.lastMove, undefined);
  assert.equal(at0.orientation, 'black');
  // The last ply (or none) is the game itself, movable again.
  assert.equal(boardConfig(g, { orientation: 'white', pending: false, ply: 2 }).movable?.color, 'white');
  assert.equal(boardConfig(g, { orientation: 'white', pending: false, ply: null }).fen, g.fen);
  const checked = sampleGame({
    moves: [
      { uci: 'e2e4', san: 'e4' },
      { uci: 'f7f6', san: 'f6' },
      { uci: 'd1h5', san: 'Qh5+' },
      { uci: 'g7g6', san: 'g6' },
    ],
  });
  assert.equal(boardConfig(checked, { orientation: 'white', pending: false, ply: 3 }).check, 'black');
  assert.equal(boardConfig(checked, { orientation: 'white', pending: false, ply: 2 }).check, false);
});

test('piece animation follows the reduced-motion preference', () => {
  assert.equal(boardConfig(sampleGame(), { orientation: 'white', pending: false }).animation?.enabled, true);
  assert.equal(boardConfig(sampleGame(), { orientation: 'white', pending: false, reducedMotion: true }).animation?.enabled, false);
});
