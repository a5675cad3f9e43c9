//! The lost-focus mark a table move carries: set by the window's blur or
//! the page turning hidden, cleared when a move reads it, silent after
//! the page is left.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FocusWatch } from '../../src/game/focus.js';

function targets() {
  const win = new EventTarget();
  const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' });
  return { window: win, document: doc };
}

test('a blur marks the next move only', () => {
  const t = targets();
  const watch = new FocusWatch(t);
  assert.equal(watch.take(), false);
  t.window.dispatchEvent(new Event('blur'));
  assert.equal(watch.take(), true);
  assert.equal(watch.take(), false, 'read once');
});

test('the page turning hidden marks it; turning visible does not', () => {
  const t = targets();
  const watch = new FocusWatch(t);
  t.document.visibilityState = 'visible';
  t.document.dispatchEvent(new Event('visibilitychange'));
  assert.equal(watch.take(), false);
  t.document.visibilityState = 'hidden';
  t.document.dispatchEvent(new Event('visibilitychange'));
  assert.equal(watch.take(), true);
});

test('nothing is heard after destroy', () => {
  const t = targets();
  const watch = new FocusWatch(t);
  watch.destroy();
  t.window.dispatchEvent(new Event('blur'));
  assert.equal(watch.take(), false);
});
