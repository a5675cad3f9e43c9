//! The analysis board's move tree: building it from the server's node list,
//! variations, navigation, numbered lines, the opening of a node or its
//! ancestors, and the PGN movetext with variations in parentheses.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lineEnd, MoveTree, movetext, type NodeData, numbered, numberLabel, openingAt, stepBack, stepForward, treePgn } from '../../src/analysis/tree.js';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** A node list as the server sends it; FENs only need their side to move and move number here. */
function node(parent: number | null, san: string | null, turn: 'w' | 'b', number: number, opening: NodeData['opening'] = null): NodeData {
  return { parent, uci: san ? `u-${san}` : null, san, fen: `x ${turn} - - 0 ${number}`, dests: {}, opening };
}

// 1. e4 e5 (1... c5 2. Nf3 (2. c3) d6) 2. Nf3
const NODES: NodeData[] = [
  { ...node(null, null, 'w', 1), fen: START },
  node(0, 'e4', 'b', 1, { eco: 'B00', name: "King's Pawn Game" }),
  node(1, 'e5', 'w', 2),
  node(1, 'c5', 'w', 2, { eco: 'B20', name: 'Sicilian Defense' }),
  node(3, 'Nf3', 'b', 2),
  node(3, 'c3', 'b', 2),
  node(4, 'd6', 'w', 3),
  node(2, 'Nf3', 'b', 2),
];

test('a tree is built from the server list, main line first', () => {
  const tree = MoveTree.of(NODES);
  assert.deepEqual(
    tree.mainline().map((n) => n.san),
    [null, 'e4', 'e5', 'Nf3'],
  );
  const e4 = tree.root.children[0]!;
  assert.deepEqual(
    e4.children.map((c) => c.san),
    ['e5', 'c5'],
  );
  assert.equal(e4.children[1]!.children[0]!.ply, 3);
  assert.throws(() => MoveTree.of([node(0, 'e4', 'b', 1)]));
  assert.throws(() => MoveTree.of([NODES[0]!, node(5, 'e4', 'b', 1)]));
});

test('a move already there is followed; a new one becomes a variation', () => {
  const tree = MoveTree.of(NODES);
  const e4 = tree.root.children[0]!;
  const again = tree.add(e4, { uci: 'u-e5', san: 'e5', fen: 'x w - - 0 2', dests: {}, opening: null });
  assert.equal(again, e4.children[0]);
  const fresh = tree.add(e4, { uci: 'u-d5', san: 'd5', fen: 'x w - - 0 2', dests: {}, opening: null });
  assert.deepEqual(
    e4.children.map((c) => c.san),
    ['e5', 'c5', 'd5'],
  );
  assert.equal(tree.get(fresh.id), fresh);
  assert.deepEqual(
    MoveTree.path(fresh).map((n) => n.san),
    [null, 'e4', 'd5'],
  );
  tree.promote(fresh);
  assert.deepEqual(
    tree.mainline().map((n) => n.san),
    [null, 'e4', 'd5'],
  );
  tree.remove(fresh);
  assert.equal(tree.get(fresh.id), undefined);
  assert.deepEqual(
    e4.children.map((c) => c.san),
    ['e5', 'c5'],
  );
});

test('walking: back to the parent, forward along the main line, to the end', () => {
  const tree = MoveTree.of(NODES);
  const c5 = tree.root.children[0]!.children[1]!;
  assert.equal(stepBack(c5).san, 'e4');
  assert.equal(stepForward(c5).san, 'Nf3');
  assert.equal(lineEnd(c5).san, 'd6');
  assert.equal(stepBack(tree.root), tree.root);
  assert.equal(stepForward(lineEnd(tree.root)), lineEnd(tree.root));
});

test('the opening is the deepest named position on the path', () => {
  const tree = MoveTree.of(NODES);
  const d6 = lineEnd(tree.root.children[0]!.children[1]!);
  assert.equal(openingAt(d6)?.eco, 'B20');
  assert.equal(openingAt(tree.mainline()[3]!)?.name, "King's Pawn Game");
  assert.equal(openingAt(tree.root), null);
});

test('engine lines and move labels carry move numbers', () => {
  assert.equal(numbered('x w - - 0 12', ['Nf3', 'Nc6', 'Bb5']), '12. Nf3 Nc6 13. Bb5');
  assert.equal(numbered('x b - - 0 12', ['Nc6', 'Bb5', 'a6']), '12... Nc6 13. Bb5 a6');
  assert.equal(numbered('x w - - 0 1', []), '');
  assert.equal(numberLabel('x w - - 0 7'), '7.');
  assert.equal(numberLabel('x b - - 0 7'), '7…');
});

test('the movetext nests variations in parentheses with their numbers', () => {
  const tree = MoveTree.of(NODES);
  assert.equal(movetext(tree), '1. e4 e5 (1... c5 2. Nf3 (2. c3) 2... d6) 2. Nf3');
  const pgn = treePgn(tree, START);
  assert.match(pgn, /^\[Event "\?"\]/);
  assert.ok(!pgn.includes('[FEN'));
  assert.ok(pgn.endsWith('1. e4 e5 (1... c5 2. Nf3 (2. c3) 2... d6) 2. Nf3 *\n'));
  const elsewhere = MoveTree.of([node(null, null, 'b', 5)]);
  const p = treePgn(elsewhere, START);
  assert.ok(p.includes('[SetUp "1"]\n[FEN "x b - - 0 5"]'));
  assert.ok(p.endsWith('\n\n*\n'));
});

test('the PGN keeps the loaded game\'s tags: the roster in order, the others after, its result at the end', () => {
  const tree = MoveTree.of(NODES);
  const tags: Array<[string, string]> = [
    ['White', 'Ann "the rook"'],
    ['Black', 'Bob'],
    ['Event', 'Club night'],
    ['Result', '1-0'],
    ['TimeControl', '300+3'],
    ['FEN', 'ignored'],
  ];
  const pgn = treePgn(tree, START, tags);
  assert.ok(pgn.startsWith('[Event "Club night"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[White "Ann \\"the rook\\""]\n[Black "Bob"]\n[Result "1-0"]\n[TimeControl "300+3"]\n\n'), pgn);
  assert.ok(!pgn.includes('ignored'));
  assert.ok(pgn.endsWith(' 2. Nf3 1-0\n'), pgn);
});
