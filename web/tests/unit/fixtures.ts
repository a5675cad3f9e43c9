//! Shared test data for the unit tests.
import type { GameState } from '../../src/api.js';

/** A standard game after 1. e4 e5, White (the viewer) to move; fields overridable. */
export function sampleGame(over: Partial<GameState> = {}): GameState {
  return {
    id: 'abc',
    v: 3,
    kind: 'computer',
    level: 'beginner',
    you: 'white',
    rules: 'plyyard',
    variant: 'standard',
    position: null,
    initial_fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
    fen: 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2',
    turn: 'white',
    ply: 2,
    check: false,
    moves: [
      { uci: 'e2e4', san: 'e4' },
      { uci: 'e7e5', san: 'e5' },
    ],
    last_move: ['e7', 'e5'],
    dests: { g1: ['f3', 'h3', 'e2'], e1: ['e2'] },
    status: 'ongoing',
    result: '*',
    reason: null,
    thinking: false,
    created_at: '2026-11-29T13:00:00Z',
    ...over,
  };
}
