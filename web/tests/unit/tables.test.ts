//! The pure parts of tables: clock display and countdown, time controls,
//! table codes, the lobby reducer, the open-a-table request, routes to the
//! Multiplayer and table pages, `?next=` after logging in, and the board
//! configuration with premoves.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClockState, Table } from '../../src/api.js';
import { formatClock, isLow, remaining } from '../../src/clock.js';
import { boardConfig } from '../../src/ground.js';
import { useLang } from '../../src/i18n.js';
import { authPath, nextPath, route } from '../../src/route.js';
import { lobbyReduce, minutesUntil, normalizeCode, parseTimeControl, PRESETS, ratingLabel, sameName, signed, tableRequest, tcLabel, validTimeControl } from '../../src/tables.js';
import { sampleGame } from './fixtures.js';

test('clocks show m:ss, h:mm:ss from an hour, and tenths under ten seconds, never rounding up', () => {
  assert.equal(formatClock(300_000), '5:00');
  assert.equal(formatClock(299_999), '4:59');
  assert.equal(formatClock(61_000), '1:01');
  assert.equal(formatClock(10_000), '0:10');
  assert.equal(formatClock(9_999), '0:09.9');
  assert.equal(formatClock(9_050), '0:09.0');
  assert.equal(formatClock(1_234), '0:01.2');
  assert.equal(formatClock(99), '0:00.0');
  assert.equal(formatClock(0), '0:00.0');
  assert.equal(formatClock(-500), '0:00.0');
  assert.equal(formatClock(30 * 60_000), '30:00');
  assert.equal(formatClock(3_600_000 + 65_000), '1:01:05');
  assert.ok(isLow(9_999) && !isLow(10_000));
});

test('only the running clock counts down, from the moment the state was received', () => {
  const clock: ClockState = { initial_ms: 300_000, increment_ms: 3000, white_ms: 120_000, black_ms: 95_000, running: 'white' };
  const r = { clock, at: 1000 };
  assert.equal(remaining(r, 'white', 1000), 120_000);
  assert.equal(remaining(r, 'white', 3500), 117_500);
  assert.equal(remaining(r, 'black', 3500), 95_000);
  // A clock never shows less than zero, nor more than the server said (a "now" before receipt).
  assert.equal(remaining(r, 'white', 1000 + 500_000), 0);
  assert.equal(remaining(r, 'white', 0), 120_000);
  // Stopped clocks (game over, or before the first move) stand still.
  const stopped = { clock: { ...clock, running: null }, at: 0 };
  assert.equal(remaining(stopped, 'white', 60_000), 120_000);
  assert.equal(remaining(stopped, 'black', 60_000), 95_000);
});

test('time controls: the presets are valid; custom minutes ½, ¾, 1½ or whole 1–180 and increment 0–180', () => {
  assert.deepEqual(PRESETS.map(tcLabel), ['1+0', '2+1', '3+2', '5+3', '10+5', '15+10', '30+20']);
  for (const p of PRESETS) assert.ok(validTimeControl(p), tcLabel(p));
  assert.deepEqual(parseTimeControl('3', '2'), { minutes: 3, increment: 2 });
  assert.deepEqual(parseTimeControl(' 30 ', '20'), { minutes: 30, increment: 20 });
  assert.deepEqual(parseTimeControl('0.5', '0'), { minutes: 0.5, increment: 0 });
  assert.deepEqual(parseTimeControl('0.75', '0'), { minutes: 0.75, increment: 0 });
  assert.deepEqual(parseTimeControl('1.5', '1'), { minutes: 1.5, increment: 1 });
  assert.deepEqual(parseTimeControl('90', '30'), { minutes: 90, increment: 30 });
  assert.deepEqual(parseTimeControl('180', '180'), { minutes: 180, increment: 180 });
  for (const [m, i] of [
    ['0', '5'],
    ['0.25', '5'],
    ['181', '5'],
    ['10', '181'],
    ['', '5'],
    ['10', ''],
    ['7.5', '5'],
    ['2.5', '5'],
    ['10', '1.5'],
    ['1e1', '5'],
    ['-5', '5'],
    ['ten', '5'],
    ['010', '5'],
  ]) {
    assert.equal(parseTimeControl(m!, i!), null, `${m}+${i}`);
  }
  assert.ok(!validTimeControl({ minutes: 10.5, increment: 5 }));
});

test('the open-a-table request: public unless private, out-of-range time controls refused', () => {
  const base = { variant: 'chess960', minutes: '15', increment: '10', rules: 'fide', rated: false, private: true } as const;
  assert.deepEqual(tableRequest(base), { variant: 'chess960', minutes: 15, increment: 10, rules: 'fide', rated: false, public: false });
  assert.equal(tableRequest({ ...base, private: false })?.public, true);
  assert.equal(tableRequest({ ...base, minutes: '181' }), null);
  assert.equal(tableRequest({ ...base, minutes: '0.5', increment: '0' })?.minutes, 0.5);
});

test('table codes are read in any case, with spaces, dashes or as a whole link; look-alikes are refused', () => {
  assert.equal(normalizeCode('K7M3QX'), 'K7M3QX');
  assert.equal(normalizeCode('k7m3qx'), 'K7M3QX');
  assert.equal(normalizeCode('  k7m 3qx '), 'K7M3QX');
  assert.equal(normalizeCode('K7M-3QX'), 'K7M3QX');
  assert.equal(normalizeCode('https://chess.example/t/k7m3qx'), 'K7M3QX');
  assert.equal(normalizeCode('http://127.0.0.1:8080/t/K7M3QX/?x=1'), 'K7M3QX');
  // 0, O, 1, I and L are never in codes; lengths other than six are not codes.
  for (const bad of ['K7M3Q0', 'K7M3QO', 'K7M3Q1', 'K7M3QI', 'K7M3QL', 'K7M3Q', 'K7M3QXY', '', 'K7M3Q!']) assert.equal(normalizeCode(bad), null, bad);
});

function table(code: string, name = 'alice'): Table {
  return {
    code,
    url: `/t/${code}`,
    status: 'open',
    host: { name, rating: 1500, provisional: true },
    variant: 'standard',
    minutes: 5,
    increment: 3,
    rules: 'plyyard',
    rated: true,
    public: true,
    speed: 'blitz',
    game_id: null,
    created_at: '2026-12-01T10:00:00Z',
    expires_at: '2026-12-01T10:10:00Z',
  };
}

test('the lobby follows its socket: a full list, additions first without duplicates, removals in any case', () => {
  let lobby = lobbyReduce([], { t: 'lobby', tables: [table('AAAAAA'), table('BBBBBB')] });
  assert.deepEqual(lobby.map((t) => t.code), ['AAAAAA', 'BBBBBB']);
  lobby = lobbyReduce(lobby, { t: 'add', table: table('CCCCCC') });
  assert.deepEqual(lobby.map((t) => t.code), ['CCCCCC', 'AAAAAA', 'BBBBBB']);
  // The same table added again (a reconnection race) appears once, updated.
  lobby = lobbyReduce(lobby, { t: 'add', table: { ...table('AAAAAA'), minutes: 10 } });
  assert.deepEqual(lobby.map((t) => `${t.code}:${t.minutes}`), ['AAAAAA:10', 'CCCCCC:5', 'BBBBBB:5']);
  lobby = lobbyReduce(lobby, { t: 'remove', code: 'cccccc' });
  assert.deepEqual(lobby.map((t) => t.code), ['AAAAAA', 'BBBBBB']);
  // Removing an unknown table changes nothing; a new full list replaces everything.
  assert.deepEqual(lobbyReduce(lobby, { t: 'remove', code: 'ZZZZZZ' }).map((t) => t.code), ['AAAAAA', 'BBBBBB']);
  assert.deepEqual(lobbyReduce(lobby, { t: 'lobby', tables: [] }), []);
  // The reducer never changes the list it is given.
  assert.deepEqual(lobby.map((t) => t.code), ['AAAAAA', 'BBBBBB']);
});

test('ratings, rating changes and names', () => {
  assert.equal(ratingLabel({ rating: 1500, provisional: true }), '1500?');
  assert.equal(ratingLabel({ rating: 1623.4, provisional: false }), '1623');
  assert.equal(signed(8), '+8');
  assert.equal(signed(-8.2), '−8');
  assert.equal(signed(0.3), '±0');
  assert.ok(sameName('Alice', 'alice'));
  assert.ok(!sameName('alice', 'bob') && !sameName(null, 'alice') && !sameName('', ''));
});

test('routes: /multiplayer and /t/{code}; ?next= only to our own pages', () => {
  assert.deepEqual(route('/multiplayer'), { page: 'multiplayer' });
  assert.deepEqual(route('/multiplayer/'), { page: 'multiplayer' });
  assert.deepEqual(route('/t/k7m3qx'), { page: 'table', code: 'k7m3qx' });
  assert.equal(nextPath('?next=%2Ft%2FK7M3QX'), '/t/K7M3QX');
  assert.equal(nextPath(''), '/');
  for (const bad of ['?next=https://evil.example/', '?next=//evil.example', '?next=/\\evil.example', '?next=/api/account', '?next=javascript:alert(1)']) assert.equal(nextPath(bad), '/', bad);
  assert.equal(authPath('login', '/t/K7M3QX'), '/login?next=%2Ft%2FK7M3QX');
  assert.equal(nextPath(new URL(authPath('signup', '/multiplayer'), 'http://x').search), '/multiplayer');
});

test('the waiting room counts the minutes until the table expires, rounded up', () => {
  const now = Date.parse('2026-12-01T10:00:00Z');
  assert.equal(minutesUntil('2026-12-01T10:10:00Z', now), 10);
  assert.equal(minutesUntil('2026-12-01T10:00:01Z', now), 1);
  assert.equal(minutesUntil('2026-12-01T09:59:00Z', now), 0);
  assert.equal(minutesUntil('not a date', now), null);
});

test('premoves: at tables the player’s pieces stay movable during the opponent’s turn, with no legal moves offered', async () => {
  await useLang('en');
  const theirTurn = sampleGame({ kind: 'table', turn: 'black', you: 'white' });
  const c = boardConfig(theirTurn, { orientation: 'white', pending: false, premoves: true });
  assert.equal(c.premovable?.enabled, true);
  assert.equal(c.movable?.color, 'white');
  assert.equal(c.movable?.dests?.size, 0);
  // Against the computer, and for spectators, and once the game is over: no premoves.
  assert.equal(boardConfig(theirTurn, { orientation: 'white', pending: false }).premovable?.enabled, false);
  assert.equal(boardConfig(theirTurn, { orientation: 'white', pending: false }).movable?.color, undefined);
  assert.equal(boardConfig({ ...theirTurn, you: null }, { orientation: 'white', pending: false, premoves: true }).premovable?.enabled, false);
  assert.equal(boardConfig({ ...theirTurn, status: 'ended' }, { orientation: 'white', pending: false, premoves: true }).premovable?.enabled, false);
  // On the player's turn the server's legal moves are offered as usual.
  const ours = boardConfig(sampleGame({ kind: 'table' }), { orientation: 'white', pending: false, premoves: true });
  assert.deepEqual([...(ours.movable?.dests?.get('g1') ?? [])], ['f3', 'h3', 'e2']);
});

/** A stand-in WebSocket for the lobby socket. */
class FakeLobbySocket {
  static all: FakeLobbySocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeLobbySocket.all.push(this);
  }
  close(): void {
    this.closed = true;
    this.onclose?.();
  }
  receive(msg: unknown): void {
    this.onmessage?.({ data: typeof msg === 'string' ? msg : JSON.stringify(msg) });
  }
}

test('the lobby socket hands over its messages, reconnects after a drop and stops when closed', async () => {
  const { LobbySocket } = await import('../../src/multiplayer/socket.js');
  FakeLobbySocket.all = [];
  const got: string[] = [];
  const conn: boolean[] = [];
  const sock = new LobbySocket(
    'ws://x/api/lobby/socket',
    (m) => got.push(m.t === 'remove' ? `remove ${m.code}` : m.t === 'add' ? `add ${m.table.code}` : m.t === 'lobby' ? `lobby ${m.tables.length}` : m.t),
    (open) => conn.push(open),
    (u) => new FakeLobbySocket(u) as unknown as WebSocket,
  );
  const first = FakeLobbySocket.all[0]!;
  first.onopen?.();
  first.receive({ t: 'lobby', tables: [table('AAAAAA')] });
  first.receive({ t: 'add', table: table('BBBBBB') });
  first.receive('not json');
  first.receive({ t: 'something-else' });
  first.receive({ t: 'remove', code: 'AAAAAA' });
  first.receive({ t: 'seek_remove', id: 4 });
  assert.deepEqual(got, ['lobby 1', 'add BBBBBB', 'remove AAAAAA', 'seek_remove']);
  // A drop: reported, then a new connection after the backoff (0.5–0.625 s).
  first.onclose?.();
  assert.deepEqual(conn, [true, false]);
  await new Promise((r) => setTimeout(r, 700));
  assert.equal(FakeLobbySocket.all.length, 2);
  assert.equal(FakeLobbySocket.all[1]!.url, 'ws://x/api/lobby/socket');
  sock.close();
  assert.ok(FakeLobbySocket.all[1]!.closed);
  await new Promise((r) => setTimeout(r, 700));
  assert.equal(FakeLobbySocket.all.length, 2, 'no reconnection after close()');
});
