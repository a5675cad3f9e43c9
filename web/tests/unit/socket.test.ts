//! The socket client: in-order events, resync on gaps, acks, reconnect with ?v=.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { GameState } from '../../src/api.js';
import { backoff, GameSocket, RequestError, versionAction, withKnown } from '../../src/socket.js';
import { sampleGame } from './fixtures.js';

/** A stand-in for the browser WebSocket, driven by the test. */
class FakeSocket {
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: Record<string, unknown>[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: ((e?: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: string): void {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close(code = 1000): void {
    this.readyState = 3;
    this.onclose?.({ code });
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.();
  }
  receive(msg: unknown): void {
    this.onmessage?.({ data: JSON.stringify(msg) });
  }
}

function setup(v = 3) {
  FakeSocket.all = [];
  const states: Array<{ v: number; kind: string | null }> = [];
  const conn: boolean[] = [];
  let gone = 0;
  const sock = new GameSocket(
    (n) => `ws://x/api/games/abc/socket?v=${n}`,
    v,
    {
      state: (g: GameState, e) => states.push({ v: g.v, kind: e?.kind ?? null }),
      connection: (open) => conn.push(open),
      gone: () => gone++,
    },
    (url) => new FakeSocket(url) as unknown as WebSocket,
  );
  const ws = FakeSocket.all[0]!;
  ws.open();
  return { sock, ws, states, conn, gone: () => gone };
}

test('versionAction applies the next version, ignores old ones, resyncs on gaps', () => {
  assert.equal(versionAction(5, 6), 'apply');
  assert.equal(versionAction(5, 5), 'ignore');
  assert.equal(versionAction(5, 2), 'ignore');
  assert.equal(versionAction(5, 7), 'resync');
});

test('backoff doubles from half a second up to ten seconds', () => {
  assert.equal(backoff(0, () => 0), 500);
  assert.equal(backoff(1, () => 0), 1000);
  assert.equal(backoff(3, () => 0), 4000);
  assert.equal(backoff(10, () => 0), 10000);
  assert.equal(backoff(0, () => 1), 625);
});

test('events are applied in order; duplicates ignored; a gap asks for sync once', () => {
  const { sock, ws, states } = setup(3);
  assert.equal(ws.url, 'ws://x/api/games/abc/socket?v=3');
  ws.receive({ t: 'event', v: 4, kind: 'move', move: { uci: 'g1f3', san: 'Nf3' }, game: sampleGame({ v: 4 }) });
  ws.receive({ t: 'event', v: 4, kind: 'move', move: null, game: sampleGame({ v: 4 }) });
  ws.receive({ t: 'event', v: 7, kind: 'move', move: null, game: sampleGame({ v: 7 }) });
  ws.receive({ t: 'event', v: 8, kind: 'move', move: null, game: sampleGame({ v: 8 }) });
  assert.deepEqual(states, [{ v: 4, kind: 'move' }]);
  assert.deepEqual(ws.sent, [{ t: 'sync', v: 4 }]);
  ws.receive({ t: 'full', v: 8, game: sampleGame({ v: 8 }) });
  assert.equal(sock.v, 8);
  assert.deepEqual(states.at(-1), { v: 8, kind: null });
  ws.receive({ t: 'event', v: 9, kind: 'end', move: null, game: sampleGame({ v: 9 }) });
  assert.deepEqual(states.at(-1), { v: 9, kind: 'end' });
  sock.close();
});

test('requests resolve on ack and reject on error with the code', async () => {
  const { sock, ws } = setup();
  const a = sock.request({ t: 'move', uci: 'e2e4' });
  const b = sock.request({ t: 'undo' });
  assert.deepEqual(ws.sent, [
    { t: 'move', uci: 'e2e4', id: 1 },
    { t: 'undo', id: 2 },
  ]);
  ws.receive({ t: 'error', id: 2, code: 'not_your_turn', message: 'wait' });
  ws.receive({ t: 'ack', id: 1, v: 4 });
  assert.equal(await a, 4);
  await assert.rejects(b, (e: unknown) => e instanceof RequestError && e.code === 'not_your_turn');
  sock.close();
});

test('a dropped connection fails pending requests and reconnects with the last version', async () => {
  const { sock, ws, conn } = setup(3);
  ws.receive({ t: 'event', v: 4, kind: 'move', move: null, game: sampleGame({ v: 4 }) });
  const pending = sock.request({ t: 'resign' });
  ws.close();
  await assert.rejects(pending, (e: unknown) => e instanceof RequestError && e.code === 'disconnected');
  assert.deepEqual(conn, [true, false]);
  await assert.rejects(sock.request({ t: 'undo' }), (e: unknown) => e instanceof RequestError);
  await new Promise((r) => setTimeout(r, 700));
  const again = FakeSocket.all[1];
  assert.ok(again, 'reconnected');
  assert.equal(again.url, 'ws://x/api/games/abc/socket?v=4');
  again.open();
  assert.deepEqual(conn, [true, false, true]);
  sock.close();
  assert.equal(FakeSocket.all.length, 2);
});

test('going offline drops the socket; coming back online reconnects at once', () => {
  const { sock, ws, conn } = setup(5);
  sock.drop();
  assert.deepEqual(conn, [true, false]);
  assert.equal(FakeSocket.all.length, 1);
  sock.retryNow();
  assert.equal(FakeSocket.all.length, 2);
  assert.equal(FakeSocket.all[1]!.url, 'ws://x/api/games/abc/socket?v=5');
  sock.retryNow();
  assert.equal(FakeSocket.all.length, 2, 'no second socket while one is opening');
  FakeSocket.all[1]!.open();
  assert.deepEqual(conn, [true, false, true]);
  assert.ok(ws !== FakeSocket.all[1]);
  sock.close();
});

test('a game that no longer exists (close 4404) stops the reconnecting', async () => {
  const { ws, conn, gone } = setup(2);
  ws.close(4404);
  assert.equal(gone(), 1);
  assert.deepEqual(conn, [true]);
  await new Promise((r) => setTimeout(r, 700));
  assert.equal(FakeSocket.all.length, 1);
});

test('a request made while the socket is still connecting waits for it, or fails if it closes', async () => {
  FakeSocket.all = [];
  const sock = new GameSocket((v) => `ws://x/s?v=${v}`, 0, { state: () => {}, connection: () => {} }, (u) => new FakeSocket(u) as unknown as WebSocket);
  const first = FakeSocket.all[0]!;
  const early = sock.request({ t: 'resign' });
  assert.deepEqual(first.sent, [], 'nothing is sent before the socket opens');
  first.open();
  assert.deepEqual(first.sent, [{ t: 'resign', id: 1 }]);
  first.receive({ t: 'ack', id: 1, v: 2 });
  assert.equal(await early, 2);
  sock.close();

  FakeSocket.all = [];
  const other = new GameSocket((v) => `ws://x/s?v=${v}`, 0, { state: () => {}, connection: () => {} }, (u) => new FakeSocket(u) as unknown as WebSocket);
  const lost = other.request({ t: 'undo' });
  FakeSocket.all[0]!.close();
  await assert.rejects(lost, (e: unknown) => e instanceof RequestError && e.code === 'disconnected');
  other.close();
});

test('an event is completed with the known viewer and move list', () => {
  const e4 = { uci: 'e2e4', san: 'e4' };
  const e5 = { uci: 'e7e5', san: 'e5' };
  const known = sampleGame({ you: 'black', ply: 1, moves: [e4] });
  const wire = (over: Partial<GameState>) => {
    const g: Partial<GameState> = { ...sampleGame(over), you: null };
    delete g.moves;
    return g as GameState;
  };
  const moved = withKnown(wire({ ply: 2 }), e5, known);
  assert.equal(moved.you, 'black');
  assert.deepEqual(moved.moves, [e4, e5]);
  const undone = withKnown(wire({ ply: 0 }), null, moved);
  assert.deepEqual(undone.moves, []);
  const ended = withKnown(wire({ ply: 2, status: 'ended' }), null, moved);
  assert.deepEqual(ended.moves, [e4, e5]);
  // A full list on the wire wins.
  assert.deepEqual(withKnown(sampleGame({ ply: 1, moves: [e4] }), null, moved).moves, [e4]);
  // The claim against an away player is the viewer's only if it is their side.
  assert.equal(withKnown(wire({ ply: 2, away_claimable_by: 'black' }), null, moved).can_claim_away, true);
  assert.equal(withKnown(wire({ ply: 2, away_claimable_by: 'white' }), null, moved).can_claim_away, false);
});

test('chat history and lines go to the listener; a chat request is acknowledged by id', async () => {
  FakeSocket.all = [];
  const heard: string[] = [];
  const sock = new GameSocket(
    (n) => `ws://x/api/games/abc/socket?v=${n}`,
    3,
    {
      state: () => {},
      connection: () => {},
      chatHistory: (room, lines) => heard.push(`${room}:${lines.map((l) => l.text).join(',')}`),
      chat: (line) => heard.push(`${line.room}:${line.user}:${line.text}`),
    },
    (url) => new FakeSocket(url) as unknown as WebSocket,
  );
  const ws = FakeSocket.all[0]!;
  ws.open();
  ws.receive({ t: 'chat_history', room: 'player', lines: [{ room: 'player', user: 'ann', text: 'hi' }] });
  ws.receive({ t: 'chat', room: 'player', user: 'bob', text: '<b>yo</b>' });
  assert.deepEqual(heard, ['player:hi', 'player:bob:<b>yo</b>']);
  const sent = sock.request({ t: 'chat', room: 'player', text: 'gl' });
  assert.deepEqual(ws.sent.at(-1), { t: 'chat', room: 'player', text: 'gl', id: 1 });
  ws.receive({ t: 'error', id: 1, code: 'rate_limited', message: 'slow down' });
  await assert.rejects(sent, (e: unknown) => e instanceof RequestError && e.code === 'rate_limited');
  sock.close();
});
