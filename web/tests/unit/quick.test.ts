//! Quick pairing's pure parts: the grid's cells, the waiting seeks kept in
//! step with the lobby socket, the count shown on each cell, the request.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Seek } from '../../src/api.js';
import { CELLS, cellId, seekRequest, seeksReduce, waitingFor } from '../../src/multiplayer/quick.js';
import { PRESETS } from '../../src/tables.js';

function seek(id: number, name: string, over: Partial<Seek> = {}): Seek {
  return { id, name, rating: 1500, provisional: true, variant: 'standard', minutes: 3, increment: 2, rated: true, speed: 'blitz', ...over };
}

test('the grid has every preset in Chess then in Chess960, each with its speed', () => {
  assert.equal(CELLS.length, 2 * PRESETS.length);
  assert.deepEqual(
    CELLS.map(cellId),
    ['standard', 'chess960'].flatMap((v) => ['1+0', '2+1', '3+2', '5+3', '10+5', '15+10', '30+20'].map((tc) => `${v}-${tc}`)),
  );
  assert.deepEqual(
    CELLS.slice(0, 7).map((c) => c.speed),
    ['bullet', 'bullet', 'blitz', 'blitz', 'rapid', 'rapid', 'classical'],
  );
  assert.equal(new Set(CELLS.map(cellId)).size, CELLS.length);
  assert.deepEqual(seekRequest(CELLS[10]!, false), { variant: 'chess960', minutes: 5, increment: 3, rated: false });
});

test('the waiting seeks follow the lobby socket: list, add without duplicates, remove', () => {
  let seeks = seeksReduce([], { t: 'lobby', tables: [], seeks: [seek(1, 'ann')] });
  seeks = seeksReduce(seeks, { t: 'seek_add', seek: seek(2, 'bob') });
  seeks = seeksReduce(seeks, { t: 'seek_add', seek: seek(2, 'bob') });
  assert.deepEqual(seeks.map((s) => s.id), [1, 2]);
  seeks = seeksReduce(seeks, { t: 'remove', code: 'AAAAAA' });
  assert.equal(seeks.length, 2, 'table messages leave seeks alone');
  seeks = seeksReduce(seeks, { t: 'seek_remove', id: 1 });
  assert.deepEqual(seeks.map((s) => s.id), [2]);
  assert.deepEqual(seeksReduce(seeks, { t: 'lobby', tables: [] }), [], 'a lobby without seeks (an older server) empties the list');
});

test('each cell counts the others waiting for the same game, rated or casual as chosen', () => {
  const blitz = CELLS[2]!;
  const seeks = [
    seek(1, 'ann'),
    seek(2, 'Bob'),
    seek(3, 'cyd', { rated: false }),
    seek(4, 'dan', { variant: 'chess960' }),
    seek(5, 'eve', { minutes: 5, increment: 3 }),
  ];
  assert.equal(waitingFor(seeks, blitz, true), 2);
  assert.equal(waitingFor(seeks, blitz, true, 'bob'), 1, 'not counting oneself, whatever the case');
  assert.equal(waitingFor(seeks, blitz, false), 1);
  assert.equal(waitingFor(seeks, CELLS[9]!, true), 1);
  assert.equal(waitingFor(seeks, CELLS[3]!, true), 1);
  assert.equal(waitingFor(seeks, CELLS[4]!, true), 0);
  assert.equal(waitingFor(seeks, CELLS[0]!, true), 0, 'nobody waits for 1+0');
});
