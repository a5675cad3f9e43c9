//! The Swiss page's pure parts: its route (the TRF file is not a page),
//! its paths, and reading the results' NDJSON.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseResults, trfPath } from '../../src/swiss/api.js';
import { route, swissPath } from '../../src/route.js';

test('swiss routes and paths; the .trf file is not a page', () => {
  assert.deepEqual(route('/swiss/AbCd1234'), { page: 'swiss', id: 'AbCd1234' });
  assert.deepEqual(route('/swiss/AbCd1234/'), { page: 'swiss', id: 'AbCd1234' });
  assert.deepEqual(route('/swiss/AbCd1234.trf'), { page: 'home' });
  assert.equal(swissPath('AbCd1234'), '/swiss/AbCd1234');
  assert.equal(trfPath('AbCd1234'), '/swiss/AbCd1234.trf');
});

test('swiss results are read line by line, broken lines skipped', () => {
  const text = [
    '{"rank":1,"points":2,"tieBreak":1.5,"buchholz":3,"rating":1500,"username":"ann","performance":1900}',
    '{"rank":2,"points',
    '',
    '{"rank":2,"points":0,"tieBreak":0,"buchholz":2,"rating":1500,"username":"bob","absent":true}',
  ].join('\n');
  const r = parseResults(text);
  assert.deepEqual(
    r.map((x) => [x.rank, x.username, x.points, x.absent ?? false]),
    [
      [1, 'ann', 2, false],
      [2, 'bob', 0, true],
    ],
  );
});
