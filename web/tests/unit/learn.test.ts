//! The Learn pages' pure parts: their routes and a diagram's chessground
//! configuration from the server's `data-*` values.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diagramConfig, HIGHLIGHT_CLASS, parseArrows, parseSquares } from '../../src/learn/diagram.js';
import { route } from '../../src/route.js';

test('Learn paths route to the index and to pages', () => {
  assert.deepEqual(route('/learn'), { page: 'learn', slug: null });
  assert.deepEqual(route('/learn/'), { page: 'learn', slug: null });
  assert.deepEqual(route('/learn/en-passant'), { page: 'learn', slug: 'en-passant' });
  assert.deepEqual(route('/learn/castling/'), { page: 'learn', slug: 'castling' });
  assert.deepEqual(route('/learn/a/b'), { page: 'home' });
  assert.deepEqual(route('/learning'), { page: 'home' });
});

test('arrows and squares are read as the server writes them; malformed ones are left out', () => {
  assert.deepEqual(parseArrows('h5f7:green c4f7:red a1a8:blue'), [
    { orig: 'h5', dest: 'f7', brush: 'green' },
    { orig: 'c4', dest: 'f7', brush: 'red' },
    { orig: 'a1', dest: 'a8', brush: 'blue' },
  ]);
  assert.deepEqual(parseArrows('e2e4'), [{ orig: 'e2', dest: 'e4', brush: 'green' }]);
  assert.deepEqual(parseArrows('e2e9 i1a1 e2e4:pink e2 '), []);
  assert.deepEqual(parseArrows(undefined), []);
  assert.deepEqual(parseSquares('f7 e8 z9'), ['f7', 'e8']);
  assert.deepEqual(parseSquares(''), []);
});

test('a diagram is a view-only board with its position, orientation, arrows and highlights', () => {
  const c = diagramConfig({
    fen: 'r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4',
    arrows: 'h5f7:green',
    squares: 'f7',
    orientation: 'black',
  });
  assert.equal(c.fen, 'r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR');
  assert.equal(c.orientation, 'black');
  assert.equal(c.turnColor, 'black');
  assert.equal(c.viewOnly, true);
  assert.equal(c.draggable?.enabled, false);
  assert.deepEqual(c.drawable?.autoShapes, [{ orig: 'h5', dest: 'f7', brush: 'green' }]);
  assert.deepEqual([...(c.highlight?.custom ?? new Map())], [['f7', HIGHLIGHT_CLASS]]);
  const plain = diagramConfig({ fen: '8/8/8/8/8/8/8/K6k w - - 0 1' });
  assert.equal(plain.orientation, 'white');
  assert.equal(plain.turnColor, 'white');
  assert.deepEqual(plain.drawable?.autoShapes, []);
  assert.equal(diagramConfig({ fen: '8/8/8/8/8/8/8/K6k w - - 0 1' }, true).animation?.enabled, false);
});
