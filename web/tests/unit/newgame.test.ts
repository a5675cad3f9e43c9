//! The New game form's request: position numbers, start positions and clocks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CLOCKS, type Settings, toRequest } from '../../src/newgame/ctrl.js';

const base: Settings = { level: 'normal', color: 'black', variant: 'standard', rules: 'fide', positionMode: 'random', positionNumber: '518', fen: '', clock: 'none' };

test('standard chess sends no position number', () => {
  assert.deepEqual(toRequest(base), { level: 'normal', color: 'black', variant: 'standard', rules: 'fide', position: null });
  assert.deepEqual(toRequest({ ...base, positionMode: 'chosen', positionNumber: 'x' }), { level: 'normal', color: 'black', variant: 'standard', rules: 'fide', position: null });
});

test('Chess960: random, or a whole number from 0 to 959', () => {
  const c = { ...base, variant: 'chess960' as const };
  assert.equal((toRequest(c) as { position: number | null }).position, null);
  for (const [text, want] of [['0', 0], ['518', 518], [' 959 ', 959]] as const) {
    assert.equal((toRequest({ ...c, positionMode: 'chosen', positionNumber: text }) as { position: number }).position, want);
  }
  for (const bad of ['960', '-1', '1.5', '', 'abc', '1e2', '0x10']) {
    assert.deepEqual(toRequest({ ...c, positionMode: 'chosen', positionNumber: bad }), { error: 'home.position.invalid' }, bad);
  }
});

test('a start FEN is sent after a shape check, and replaces a Chess960 number', () => {
  const fen = '8/P6k/8/8/8/8/8/K7 w - - 0 1';
  assert.deepEqual(toRequest({ ...base, fen: `  ${fen} ` }), { level: 'normal', color: 'black', variant: 'standard', rules: 'fide', position: null, fen });
  const x = 'rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1';
  assert.deepEqual(toRequest({ ...base, variant: 'chess960', positionMode: 'chosen', positionNumber: '12', fen: x }), {
    level: 'normal',
    color: 'black',
    variant: 'chess960',
    rules: 'fide',
    position: null,
    fen: x,
  });
  for (const bad of ['hello', '8/8/8 w - - 0 1', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1']) {
    assert.deepEqual(toRequest({ ...base, fen: bad }), { error: 'home.fen.invalid' }, bad);
  }
  assert.equal((toRequest({ ...base, fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR' }) as { fen: string }).fen, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR');
});

test('a clock is sent as minutes and increment, none by default', () => {
  assert.equal('clock' in (toRequest(base) as object), false);
  assert.deepEqual(CLOCKS, ['none', '1+0', '2+1', '3+2', '5+3', '10+5', '15+10', '30+20']);
  assert.deepEqual((toRequest({ ...base, clock: '5+3' }) as { clock: unknown }).clock, { minutes: 5, increment: 3 });
  assert.deepEqual((toRequest({ ...base, clock: '1+0', fen: '8/P6k/8/8/8/8/8/K7 w - - 0 1' }) as { clock: unknown }).clock, { minutes: 1, increment: 0 });
  // Anything else is no clock (a remembered choice from another version).
  assert.equal('clock' in (toRequest({ ...base, clock: '7+7' }) as object), false);
});
