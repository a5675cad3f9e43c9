//! Client-side notation: SAN localisation and resolving typed input against `dests`.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ENGLISH, type Letters, legalMoves, localiseSan, parseFen, positionsOf, resolveInput, describePosition } from '../../src/notation.js';

const FR: Letters = { king: 'R', queen: 'D', rook: 'T', bishop: 'F', knight: 'C' };
const RU: Letters = { king: 'Кр', queen: 'Ф', rook: 'Л', bishop: 'С', knight: 'К' };
const RO: Letters = { king: 'R', queen: 'D', rook: 'T', bishop: 'N', knight: 'C' };

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const START_DESTS = {
  a2: ['a3', 'a4'], b2: ['b3', 'b4'], c2: ['c3', 'c4'], d2: ['d3', 'd4'],
  e2: ['e3', 'e4'], f2: ['f3', 'f4'], g2: ['g3', 'g4'], h2: ['h3', 'h4'],
  b1: ['a3', 'c3'], g1: ['f3', 'h3'],
};

test('localiseSan rewrites piece and promotion letters only', () => {
  assert.equal(localiseSan('Nf3', FR), 'Cf3');
  assert.equal(localiseSan('Kxe2+', RU), 'Крxe2+');
  assert.equal(localiseSan('exd8=Q#', FR), 'exd8=D#');
  assert.equal(localiseSan('Bb5', RO), 'Nb5');
  assert.equal(localiseSan('O-O-O', RU), 'O-O-O');
  assert.equal(localiseSan('e4', RU), 'e4');
  assert.equal(localiseSan('Rae1', FR), 'Tae1');
});

test('parseFen reads placement and side to move', () => {
  const { board, whiteToMove } = parseFen('4k3/8/8/8/8/8/4P3/4K2R b K - 0 1');
  assert.equal(whiteToMove, false);
  assert.deepEqual(board.get('h1'), { role: 'rook', white: true });
  assert.deepEqual(board.get('e8'), { role: 'king', white: false });
  assert.equal(board.size, 4);
});

test('legalMoves names the 20 opening moves', () => {
  const moves = legalMoves(START, START_DESTS);
  assert.equal(moves.length, 20);
  assert.deepEqual(moves.map((m) => m.san).sort(), ['Na3', 'Nc3', 'Nf3', 'Nh3', 'a3', 'a4', 'b3', 'b4', 'c3', 'c4', 'd3', 'd4', 'e3', 'e4', 'f3', 'f4', 'g3', 'g4', 'h3', 'h4'].sort());
});

test('disambiguation by file, then rank, then square', () => {
  // Knights on b1 and f1... rooks on a1 and h1 both reach d1; knights b1 and b5 both reach c3; queens on a1? use three queens.
  const fen = '7k/8/8/1N6/8/8/8/RN2K2R w - - 0 1';
  const moves = legalMoves(fen, { a1: ['d1', 'c1'], h1: ['g1', 'f1'], b1: ['c3', 'd2', 'a3'], b5: ['c3', 'd4', 'a7'], e1: ['d1', 'e2', 'f1'] });
  const san = (uci: string) => moves.find((m) => m.uci === uci)?.san;
  assert.equal(san('b1c3'), 'N1c3');
  assert.equal(san('b5c3'), 'N5c3');
  assert.equal(san('b1d2'), 'Nd2');
  assert.equal(san('a1d1'), 'Rd1');
  const q = legalMoves('7k/8/8/8/8/Q1Q5/8/Q3K3 w - - 0 1', { a1: ['b2'], a3: ['b2'], c3: ['b2'] });
  assert.equal(q.find((m) => m.from === 'a1')?.san, 'Q1b2');
  assert.equal(q.find((m) => m.from === 'c3')?.san, 'Qcb2');
  assert.equal(q.find((m) => m.from === 'a3')?.san, 'Qa3b2');
});

test('captures, en passant and promotions', () => {
  const fen = '1n5k/P7/8/3pP3/8/8/8/4K3 w - d6 0 2';
  const moves = legalMoves(fen, { a7: ['a8', 'b8'], e5: ['e6', 'd6'], e1: ['d1'] });
  const sans = moves.map((m) => m.san).sort();
  assert.deepEqual(sans, ['Kd1', 'a8=B', 'a8=N', 'a8=Q', 'a8=R', 'axb8=B', 'axb8=N', 'axb8=Q', 'axb8=R', 'e6', 'exd6'].sort());
  assert.equal(moves.find((m) => m.san === 'axb8=N')?.uci, 'a7b8n');
});

test('castling listed both ways in standard is one move sent king-to-target', () => {
  const fen = 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1';
  const moves = legalMoves(fen, { e1: ['d1', 'f1', 'g1', 'h1', 'c1', 'a1'] });
  const castles = moves.filter((m) => m.castle);
  assert.equal(castles.length, 2);
  assert.equal(castles.find((m) => m.castle === 'O-O')?.uci, 'e1g1');
  assert.equal(castles.find((m) => m.castle === 'O-O-O')?.uci, 'e1c1');
  assert.equal(moves.length, 4);
  for (const typed of ['O-O', '0-0', 'o-o', 'e1g1', 'e1h1', 'O-O+']) {
    const r = resolveInput(typed, moves, ENGLISH);
    assert.equal(r.kind === 'move' && r.move.uci, 'e1g1', typed);
  }
  const r = resolveInput('0-0-0', moves, ENGLISH);
  assert.equal(r.kind === 'move' && r.move.uci, 'e1c1');
});

test('Chess960 castling given king-to-rook is sent king-to-rook', () => {
  // King b1, rooks a1 and h1: queenside castling is b1→a1 (king lands on c1).
  const fen = '1k5r/8/8/8/8/8/8/RK5R w HAh - 0 1';
  const moves = legalMoves(fen, { b1: ['a1', 'h1', 'c1', 'a2', 'b2', 'c2'] });
  assert.equal(moves.find((m) => m.castle === 'O-O-O')?.uci, 'b1a1');
  assert.equal(moves.find((m) => m.castle === 'O-O')?.uci, 'b1h1');
  assert.equal(moves.find((m) => m.uci === 'b1c1')?.san, 'Kc1');
});

test('typed input in each language, with English as a fallback', () => {
  const moves = legalMoves(START, START_DESTS);
  const uci = (input: string, letters: Letters) => {
    const r = resolveInput(input, moves, letters);
    return r.kind === 'move' ? r.move.uci : r.kind;
  };
  assert.equal(uci('Nf3', ENGLISH), 'g1f3');
  assert.equal(uci('nf3', ENGLISH), 'g1f3');
  assert.equal(uci('Cf3', FR), 'g1f3');
  assert.equal(uci('Кf3', RU), 'g1f3');
  assert.equal(uci('кf3', RU), 'g1f3');
  assert.equal(uci('Cc3', RO), 'b1c3');
  assert.equal(uci('Nf3', FR), 'g1f3');
  assert.equal(uci('Ng1-f3', ENGLISH), 'g1f3');
  assert.equal(uci('Ngf3', ENGLISH), 'g1f3');
  assert.equal(uci('e4', ENGLISH), 'e2e4');
  assert.equal(uci(' e4! ', RU), 'e2e4');
  assert.equal(uci('e2e4', FR), 'e2e4');
  assert.equal(uci('e2-e4', ENGLISH), 'e2e4');
  assert.equal(uci('♘f3', RU), 'g1f3');
  assert.equal(uci('e5', ENGLISH), 'none');
  assert.equal(uci('Nf4', ENGLISH), 'none');
  assert.equal(uci('Qh5', ENGLISH), 'none');
  assert.equal(uci('', ENGLISH), 'none');
  assert.equal(uci('hello', ENGLISH), 'none');
});

test('ambiguous input lists the candidates; a missing promotion piece asks', () => {
  const fen = '7k/P7/8/8/8/8/8/RN2K2R w - - 0 1';
  const moves = legalMoves(fen, { a1: ['d1'], h1: ['d1'], a7: ['a8'] });
  // 'Rd1' fits both rooks (not legal SAN, but a user may type it).
  const r = resolveInput('Rd1', moves, ENGLISH);
  assert.equal(r.kind, 'ambiguous');
  assert.equal(r.kind === 'ambiguous' && r.moves.length, 2);
  const p = resolveInput('a8', moves, ENGLISH);
  assert.equal(p.kind, 'promotion');
  assert.equal(p.kind === 'promotion' && `${p.from}${p.to}`, 'a7a8');
  const q = resolveInput('a8=N', moves, ENGLISH);
  assert.equal(q.kind === 'move' && q.move.uci, 'a7a8n');
  const fr = resolveInput('a8=C', moves, FR);
  assert.equal(fr.kind === 'move' && fr.move.uci, 'a7a8n');
  const ru = resolveInput('a8Ф', moves, RU);
  assert.equal(ru.kind === 'move' && ru.move.uci, 'a7a8q');
  const u = resolveInput('a7a8r', moves, ENGLISH);
  assert.equal(u.kind === 'move' && u.move.uci, 'a7a8r');
  assert.equal(resolveInput('a7a8', moves, ENGLISH).kind, 'promotion');
});

test('pawn capture input is not read as a bishop move', () => {
  const fen = 'rnbqkbnr/ppp1pppp/8/3p4/2P5/8/PP1PPPPP/RNBQKBNR w KQkq - 0 2';
  const moves = legalMoves(fen, { c4: ['c5', 'd5'], d1: ['b3', 'a4', 'c2'] });
  const r = resolveInput('cxd5', moves, ENGLISH);
  assert.equal(r.kind === 'move' && r.move.uci, 'c4d5');
  const r2 = resolveInput('cd5', moves, ENGLISH);
  assert.equal(r2.kind === 'move' && r2.move.uci, 'c4d5');
  assert.equal(moves.find((m) => m.uci === 'c4d5')?.san, 'cxd5');
});

test('positionsOf replays accepted moves: captures, castling both ways, en passant, promotion', () => {
  const start = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
  const p = positionsOf(start, ['e2e4', 'd7d5', 'e4d5', 'g8f6', 'g1f3', 'f6d5', 'f1c4', 'c8g4', 'e1g1']);
  assert.equal(p.length, 10);
  assert.equal(p[0], 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR');
  assert.equal(p[3], 'rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR');
  assert.equal(p[9], 'rn1qkb1r/ppp1pppp/8/3n4/2B3b1/5N2/PPPP1PPP/RNBQ1RK1');
  // En passant and a promotion to a knight.
  const ep = positionsOf('4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1', ['e5d6']);
  assert.equal(ep[1], '4k3/8/3P4/8/8/8/8/4K3');
  const promo = positionsOf('1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1', ['a7b8n']);
  assert.equal(promo[1], '1N2k3/8/8/8/8/8/8/4K3');
  // Queenside castling in standard chess, and Chess960 king-takes-rook.
  const qs = positionsOf('r3k3/8/8/8/8/8/8/4K3 b q - 0 1', ['e8c8']);
  assert.equal(qs[1], '2kr4/8/8/8/8/8/8/4K3');
  const c960 = positionsOf('rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1', ['b1h1', 'b8a8']);
  assert.equal(c960[1], 'rk5r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1');
  assert.equal(c960[2], '2kr3r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1');
});

test('describePosition lists each side king first with sorted squares', () => {
  const d = describePosition('4k3/pp6/8/8/8/8/6PP/R3K2R w KQ - 0 1');
  assert.deepEqual(d.white, [
    ['king', ['e1']],
    ['rook', ['a1', 'h1']],
    ['pawn', ['g2', 'h2']],
  ]);
  assert.deepEqual(d.black, [
    ['king', ['e8']],
    ['pawn', ['a7', 'b7']],
  ]);
});
