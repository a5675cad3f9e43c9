//! The review pages' pure parts: routes, where the analysis board's
//! position comes from, winning chances for the graph, move numbers,
//! "next mistake", arrows and score texts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scoreText, sourceOf, START_FEN, turnOf, uciOf } from '../../src/analysis/source.js';
import { evalText, lineMates, type MoveReview, moveArrows, moveNumberOf, nextLabelled, type Review, whitePercent } from '../../src/review/data.js';
import { route } from '../../src/route.js';

test('review, analysis and import paths route to their pages', () => {
  assert.deepEqual(route('/game/abc123/review'), { page: 'review', id: 'abc123' });
  assert.deepEqual(route('/game/abc123/review/'), { page: 'review', id: 'abc123' });
  assert.deepEqual(route('/analysis'), { page: 'analysis' });
  assert.deepEqual(route('/analysis/abc123/12'), { page: 'analysis' });
  assert.deepEqual(route('/analysis/abc123/x'), { page: 'home' });
  assert.deepEqual(route('/import'), { page: 'import' });
  assert.deepEqual(route('/game/abc123/review/x'), { page: 'home' });
});

test('the analysis board reads its position from the URL', () => {
  assert.deepEqual(sourceOf('/analysis', ''), { fen: START_FEN });
  assert.deepEqual(sourceOf('/analysis', '?fen=8%2F8%2F8%2F8%2F8%2F8%2F8%2FK6k%20w%20-%20-%200%201'), { fen: '8/8/8/8/8/8/8/K6k w - - 0 1' });
  assert.deepEqual(sourceOf('/analysis', '?game=abc&ply=7'), { game: 'abc', ply: 7 });
  assert.deepEqual(sourceOf('/analysis', '?game=abc&ply=-3'), { game: 'abc', ply: 0 });
  assert.deepEqual(sourceOf('/analysis/abc/12', ''), { game: 'abc', ply: 12 });
});

test('winning chances follow the server curve, mates at the ends', () => {
  assert.equal(whitePercent({ cp: 0 }), 50);
  assert.ok(Math.abs(whitePercent({ cp: 100 }) - 59.1) < 0.1);
  assert.ok(Math.abs(whitePercent({ cp: -100 }) + whitePercent({ cp: 100 }) - 100) < 1e-9);
  assert.equal(whitePercent({ cp: 5000 }), whitePercent({ mate: 3 }));
  assert.equal(whitePercent({ mate: -1 }), whitePercent({ checkmate: 'black' }));
  assert.ok(whitePercent({ checkmate: 'white' }) > 97);
  assert.equal(evalText({ cp: 35 }), '+0.35');
  assert.equal(evalText({ cp: -120 }), '−1.20');
  assert.equal(evalText({ mate: -2 }), '#−2');
  assert.equal(scoreText({ mate: 1 }), '#1');
  assert.equal(scoreText({ cp: 0 }), '+0.00');
  assert.equal(scoreText({ mate: -2 }), '−#2');
});

test('move numbers count from the starting position', () => {
  const start = START_FEN;
  assert.deepEqual([1, 2, 3, 4].map((p) => moveNumberOf(start, p)), [1, 1, 2, 2]);
  const blackFirst = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 3';
  assert.deepEqual([1, 2, 3].map((p) => moveNumberOf(blackFirst, p)), [3, 4, 4]);
});

function move(ply: number, label: MoveReview['label'], uci = 'e2e4', best = 'e2e4'): MoveReview {
  return {
    ply,
    side: ply % 2 === 1 ? 'white' : 'black',
    san: 'e4',
    uci,
    before: { cp: 0 },
    after: { cp: 0 },
    best: { uci: [best], san: ['x'], fens: ['f'] },
    label,
    symbol: null,
    label_name: null,
    mate: null,
    loss: 0,
    accuracy: 100,
    texts: [],
  };
}

test('next mistake goes to the next labelled move and wraps around', () => {
  const side = { accuracy: null, inaccuracies: 0, mistakes: 0, blunders: 0, missed_mates: 0, allowed_mates: 0 };
  const review: Review = { format: 1, start: { cp: 0 }, moves: [move(1, null), move(2, 'mistake'), move(3, null), move(4, 'blunder')], white: side, black: side };
  assert.equal(nextLabelled(review, 0), 2);
  assert.equal(nextLabelled(review, 2), 4);
  assert.equal(nextLabelled(review, 4), 2);
  assert.equal(nextLabelled({ ...review, moves: [move(1, null)] }, 0), null);
});

test('arrows: the move played, and the best move when it differs', () => {
  assert.deepEqual(moveArrows(move(1, null)), [{ orig: 'e2', dest: 'e4', brush: 'blue' }]);
  assert.deepEqual(moveArrows(move(1, 'blunder', 'g1f3', 'e2e4')), [
    { orig: 'g1', dest: 'f3', brush: 'red' },
    { orig: 'e2', dest: 'e4', brush: 'green' },
  ]);
});

test('board moves become UCI, pawns reaching the last rank becoming queens', () => {
  assert.equal(uciOf('e2', 'e4', true), 'e2e4');
  assert.equal(uciOf('e7', 'e8', true), 'e7e8q');
  assert.equal(uciOf('d2', 'd1', true), 'd2d1q');
  assert.equal(uciOf('a7', 'a8', false), 'a7a8');
  assert.equal(turnOf(START_FEN), 'white');
  assert.equal(turnOf('8/8/8/8/8/8/8/K6k b - - 0 1'), 'black');
});

test('a mate score goes beside a line only when the line shows that mate', () => {
  const line = (san: string[]) => ({ uci: san.map(() => 'a1a2'), san, fens: san.map(() => '') });
  // Black to move, White mates in 2 whatever Black does: two full moves, ending in mate.
  assert.ok(lineMates({ side: 'black', before: { mate: 2 }, best: line(['Qe7', 'Qb8+', 'Nxb8', 'Rd8#']) }));
  // The same score beside a line that stops short, or does not mate.
  assert.ok(!lineMates({ side: 'black', before: { mate: 2 }, best: line(['Qe7', 'Qb8+', 'Nxb8']) }));
  assert.ok(!lineMates({ side: 'black', before: { mate: 2 }, best: line(['Qe7', 'Qb8+', 'Nxb8', 'Rd8+']) }));
  // White to move mates in 1 and 2: one and three plies.
  assert.ok(lineMates({ side: 'white', before: { mate: 1 }, best: line(['Qxf7#']) }));
  assert.ok(lineMates({ side: 'white', before: { mate: 2 }, best: line(['Qb8+', 'Nxb8', 'Rd8#']) }));
  assert.ok(!lineMates({ side: 'white', before: { mate: 2 }, best: line(['Qb8+', 'Nxb8', 'Rd8+', 'Ke7', 'Rd7#']) }));
  // No mate score: nothing to show.
  assert.ok(!lineMates({ side: 'white', before: { cp: 900 }, best: line(['Qxf7#']) }));
});
