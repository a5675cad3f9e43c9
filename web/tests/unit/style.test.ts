//! The style sheet's blocks are balanced: an unclosed rule nests every
//! later rule inside it, and browsers then drop them without a word (two
//! merges did that to the analysis board's, quick pairing's and the
//! challenges' styles).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

/** The line of the first brace that closes nothing, or of the first unclosed one; null when balanced. */
export function unbalanced(css: string): number | null {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '));
  const open: number[] = [];
  let line = 1;
  for (const ch of text) {
    if (ch === '\n') line++;
    else if (ch === '{') open.push(line);
    else if (ch === '}' && open.pop() === undefined) return line;
  }
  return open.length ? open[0]! : null;
}

test('the balance check finds an unclosed rule and a stray brace', () => {
  assert.equal(unbalanced('a { b: c; }\n/* { */\nd { e: f; }'), null);
  assert.equal(unbalanced('a { b: c;\nd { e: f; }'), 1);
  assert.equal(unbalanced('a { }\n}'), 2);
});

test('every block of style.css is closed', () => {
  const css = readFileSync(join(process.env.PLYYARD_WEB ?? process.cwd(), 'src', 'style.css'), 'utf8');
  assert.equal(unbalanced(css), null);
});
