//! The exercise registry: the Learn page finds each exercise block
//! (`<div class="exercise" data-exercise="NAME" data-…>`) and calls
//! `mountExercise`, which replaces the block's no-JavaScript notice with
//! the exercise and answers the function that removes it.
import { ChecksCapturesThreats } from './cct.js';
import { MateDrills } from './drills.js';
import { MateStalemate } from './matestale.js';
import { Puzzles } from './puzzles.js';
import { parseLine, START_FEN } from './line.js';
import { Replay } from './replay.js';
import type { Exercise } from './widget.js';

/** The worked example page's game, used when the replay block gives no `moves:` line of its own. */
export const WORKED_EXAMPLE = '1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#';

/** The exercise names content blocks may use, and how each is built from the block's data. */
const EXERCISES: Record<string, (el: HTMLElement, data: DOMStringMap) => Exercise> = {
  replay: (el, d) => new Replay(el, d.fen || START_FEN, parseLine(d.moves || WORKED_EXAMPLE)),
  'mate-stalemate': (el) => new MateStalemate(el),
  'checks-captures-threats': (el, d) => new ChecksCapturesThreats(el, d.fen || ''),
  'mate-drills': (el) => new MateDrills(el),
  puzzles: (el) => new Puzzles(el),
};

/** Is `name` an exercise this app knows? */
export function isExercise(name: string): boolean {
  return Object.hasOwn(EXERCISES, name);
}

/** Mounts exercise `name` in `el` with the block's `data-*` values; answers its dispose function. */
export function mountExercise(el: HTMLElement, name: string, data: DOMStringMap): () => void {
  const make = EXERCISES[name];
  if (!make) return () => undefined;
  const ex = make(el, data);
  return () => ex.dispose();
}
