//! The exercises' pure parts: the mate/stalemate pair rule, comparing marked
//! checks/captures/threats with the server's sets, progress keys, reading a
//! line of moves, and the board's dests from the server's move list.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bareSan, destsOf, movesBetween, turnOf } from '../../src/learn/exercises/moves.js';
import { compareMarks, plainMove, threatName, threatSquare } from '../../src/learn/exercises/marks.js';
import { builtFen, differenceOf, judgePair, type PieceChar, placementFromFen, placementToFen } from '../../src/learn/exercises/pairs.js';
import { firstOpen, isProgressKey, mergeKeys, readLocal, STORAGE_KEY } from '../../src/learn/exercises/progress.js';
import { parseLine, sameMove } from '../../src/learn/exercises/line.js';

const place = (o: Record<string, PieceChar>) => new Map(Object.entries(o));

test('placements go to FEN and back', () => {
  const fen = 'r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR';
  const p = placementFromFen(`${fen} b KQkq - 0 4`)!;
  assert.equal(p.get('f7'), 'Q');
  assert.equal(p.get('e8'), 'k');
  assert.equal(p.size, 31);
  assert.equal(placementToFen(p), fen);
  assert.equal(placementToFen(new Map()), '8/8/8/8/8/8/8/8');
  assert.equal(builtFen(place({ a8: 'k', h1: 'K' }), 'black'), 'k7/8/8/8/8/8/8/7K b - - 0 1');
  for (const bad of ['8/8/8', '9/8/8/8/8/8/8/8', '8/8/8/8/8/8/8/7X', 'ppppppppp/8/8/8/8/8/8/8']) assert.equal(placementFromFen(bad), null, bad);
});

test('one change: added, removed, replaced, moved; more than one is not', () => {
  const stale = place({ a8: 'k', b6: 'Q', h1: 'K' });
  assert.deepEqual(differenceOf(place({ a8: 'k', b6: 'Q', h1: 'K', h8: 'R' }), stale), { kind: 'removed', square: 'h8', piece: 'R' });
  assert.deepEqual(differenceOf(stale, place({ a8: 'k', b6: 'Q', h1: 'K', h8: 'R' })), { kind: 'added', square: 'h8', piece: 'R' });
  assert.deepEqual(differenceOf(stale, place({ a8: 'k', b6: 'R', h1: 'K' })), { kind: 'replaced', square: 'b6', from: 'Q', to: 'R' });
  assert.deepEqual(differenceOf(stale, place({ a8: 'k', b7: 'Q', h1: 'K' })), { kind: 'moved', from: 'b6', to: 'b7', piece: 'Q' });
  assert.deepEqual(differenceOf(place({ a8: 'k', b7: 'Q', h1: 'K' }), stale), { kind: 'moved', from: 'b7', to: 'b6', piece: 'Q' });
  assert.deepEqual(differenceOf(stale, new Map(stale)), { kind: 'same' });
  // A piece moving onto another one's square changes two pieces.
  assert.deepEqual(differenceOf(place({ a8: 'k', b6: 'Q', c6: 'N', h1: 'K' }), place({ a8: 'k', c6: 'Q', h1: 'K' })), { kind: 'more', squares: 2 });
  // Two pieces of different kinds swapping squares is two changes.
  assert.deepEqual(differenceOf(place({ a1: 'Q', b1: 'R' }), place({ a1: 'R', b1: 'Q' })), { kind: 'more', squares: 2 });
  assert.deepEqual(differenceOf(stale, place({ a7: 'k', b5: 'Q', h1: 'K' })), { kind: 'more', squares: 4 });
});

test('a pair passes only with a mate, a stalemate, the same side to move and one change', () => {
  const mate = { placement: place({ a8: 'k', b6: 'Q', h1: 'K', h8: 'R' }), turn: 'black', verdict: { valid: true as const, status: 'checkmate' } };
  const stale = { placement: place({ a8: 'k', b6: 'Q', h1: 'K' }), turn: 'black', verdict: { valid: true as const, status: 'stalemate' } };
  assert.equal(judgePair(mate, stale).pass, true);
  assert.equal(judgePair(mate, { ...stale, turn: 'white' }).pass, false);
  assert.equal(judgePair(mate, { ...stale, verdict: { valid: true, status: 'ongoing' } }).pass, false);
  assert.equal(judgePair({ ...mate, verdict: { valid: false, error: 'no black king' } }, stale).pass, false);
  assert.equal(judgePair(stale, mate).pass, false, 'the slots are not interchangeable');
  const far = judgePair({ ...mate, placement: place({ a8: 'k', b6: 'Q', g1: 'K', h8: 'R' }) }, stale);
  assert.equal(far.pass, false);
  assert.equal(far.difference.kind, 'more');
});

test('marks: complete answers pass, missing and wrong ones are named', () => {
  const truth = {
    checks: ['f3e5', 'h5f7'],
    captures: ['f3e5', 'h5e5'],
    threats: [
      { uci: 'd8h4', kind: 'mate', gain: 0 },
      { uci: 'c6d4', kind: 'material', gain: 300 },
    ],
  };
  const all = { checks: new Set(truth.checks), captures: new Set(truth.captures), threatSquares: new Set(['h4', 'd4']) };
  assert.equal(compareMarks(truth, all).complete, true);
  const c = compareMarks(truth, { checks: new Set(['h5f7', 'a2a3']), captures: new Set(['f3e5']), threatSquares: new Set(['h4', 'e1']) });
  assert.equal(c.complete, false);
  assert.deepEqual(c.missingChecks, ['f3e5']);
  assert.deepEqual(c.wrongChecks, ['a2a3']);
  assert.deepEqual(c.missingCaptures, ['h5e5']);
  assert.deepEqual(c.wrongCaptures, []);
  assert.deepEqual(c.missingThreats.map(threatSquare), ['d4']);
  assert.deepEqual(c.wrongThreatSquares, ['e1']);
  const none = compareMarks({ checks: [], captures: [], threats: [] }, { checks: new Set(), captures: new Set(), threatSquares: new Set() });
  assert.equal(none.complete, true);
});

test('a threat is named from the position when the server gives no SAN', () => {
  const fen = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3';
  assert.equal(threatName(fen, { uci: 'c6d4', kind: 'material', gain: 100 }), 'Nc6-d4');
  assert.equal(threatName(fen, { uci: 'f3e5', kind: 'material', gain: 100 }), 'Nf3xe5');
  assert.equal(threatName(fen, { uci: 'd7d5', kind: 'material', gain: 100 }), 'd7-d5');
  assert.equal(threatName(fen, { uci: 'c6d4', kind: 'material', gain: 100, san: 'Nd4' }), 'Nd4');
});

test('progress keys: well-formed, merged, read from storage defensively', () => {
  assert.ok(isProgressKey('ex:replay') && isProgressKey('puzzle:m1-01') && isProgressKey('drill:kqk-1'));
  for (const bad of ['', 'EX:replay', 'ex replay', 'x'.repeat(65), 3, null]) assert.equal(isProgressKey(bad), false, String(bad));
  assert.deepEqual(mergeKeys(['puzzle:b', 'ex:replay', 'BAD KEY'], ['ex:replay', 'drill:a']), ['drill:a', 'ex:replay', 'puzzle:b']);
  const store = (v: string | null) => ({ getItem: (k: string) => (k === STORAGE_KEY ? v : null) });
  assert.deepEqual(readLocal(store('["ex:replay","ex:replay","nope!"]')), ['ex:replay']);
  assert.deepEqual(readLocal(store('{not json')), []);
  assert.deepEqual(readLocal(store('{"a":1}')), []);
  assert.deepEqual(readLocal(null), []);
  assert.equal(firstOpen([{ id: 'm1-01' }, { id: 'm1-02' }], (k) => k === 'puzzle:m1-01'), 1);
  assert.equal(firstOpen([{ id: 'm1-01' }], () => true), 0);
});

test('a line of moves is read as SAN, move numbers and results dropped; signs do not matter', () => {
  assert.deepEqual(parseLine('1. e4 e5 2. Bc4 Nc6 3.Qh5 Nf6 4. Qxf7# 1-0'), ['e4', 'e5', 'Bc4', 'Nc6', 'Qh5', 'Nf6', 'Qxf7#']);
  assert.deepEqual(parseLine('1...e5 2.Nf3'), ['e5', 'Nf3']);
  assert.ok(sameMove('Qxf7#', 'Qxf7'));
  assert.ok(sameMove('Nf6', 'Nf6?'));
  assert.ok(!sameMove('Qxf7+', 'Bxf7+'));
  assert.equal(bareSan('e8=Q+'), 'e8=Q');
});

test("the board's dests come from the server's moves; promotions share a square pair", () => {
  const moves = [{ uci: 'e7e8q' }, { uci: 'e7e8n' }, { uci: 'e7d8q' }, { uci: 'e1g1' }, { uci: 'e1f1' }];
  assert.deepEqual([...destsOf(moves).entries()], [
    ['e7', ['e8', 'd8']],
    ['e1', ['g1', 'f1']],
  ]);
  assert.deepEqual(movesBetween(moves, 'e7', 'e8').map((m) => m.uci), ['e7e8q', 'e7e8n']);
  assert.deepEqual(movesBetween(moves, 'a1', 'a2'), []);
  assert.equal(turnOf('8/8/8/8/8/8/8/8 b - - 0 1'), 'black');
  assert.equal(turnOf('8/8/8/8/8/8/8/8 w - - 0 1'), 'white');
});

test('the checks/captures list names moves by squares, without check, capture or mate marks', () => {
  const cases: Array<[string, string, string]> = [
    ['g1f3', 'Nf3', 'Ng1–f3'],
    ['f3e5', 'Nxe5+', 'Nf3–e5'],
    ['e4d5', 'exd5', 'e4–d5'],
    ['d1h5', 'Qxf7#', 'Qd1–h5'],
    ['e7e8q', 'e8=Q+', 'e7–e8=Q'],
    ['b7a8n', 'bxa8=N', 'b7–a8=N'],
    ['e1g1', 'O-O+', 'O-O'],
    ['e1a1', 'O-O-O#', 'O-O-O'],
  ];
  for (const [uci, san, want] of cases) {
    const name = plainMove({ uci, san });
    assert.equal(name, want, `${uci} ${san}`);
    assert.doesNotMatch(name, /[x+#]/);
  }
});
