//! The move tree as a view, shared by the analysis board: the main line
//! inline with its move numbers, each variation in parentheses after the
//! move it replaces (nested ones inside), the node shown highlighted and
//! every move a button that jumps there; and the walk buttons (start, back,
//! forward, end).
import { h, type VNode } from 'snabbdom';
import { currentLetters, t } from '../i18n.js';
import { localiseSan } from '../notation.js';
import { lineEnd, moveOf, type MoveTree, type TreeNode } from './tree.js';

/** What the tree view needs from its page. */
export interface TreeHost {
  tree: MoveTree | null;
  node: TreeNode | null;
  goTo(node: TreeNode): void;
  step(where: 'back' | 'forward' | 'start' | 'end'): void;
}

function moveButton(host: TreeHost, before: TreeNode, n: TreeNode, numbered: boolean): VNode {
  const { number, white } = moveOf(before.fen);
  const label = white ? `${number}.` : numbered ? `${number}…` : '';
  const current = host.node === n;
  return h(
    'button.tree-move',
    {
      key: n.id,
      attrs: { type: 'button', 'data-testid': 'tree-move', 'data-id': n.id, 'data-ply': n.ply, 'aria-current': current ? 'true' : 'false' },
      class: { current },
      on: { click: () => host.goTo(n) },
    },
    [label ? h('span.move-no', label) : '', localiseSan(n.san ?? '', currentLetters())],
  );
}

/**
 * Variation `v` of the move after `before`, in parentheses. Each parenthesis
 * is glued to the move beside it, so that a line never starts with ")" nor
 * ends with "("; after a nested variation's own ")" the next ")" cannot
 * break away either.
 */
function variation(host: TreeHost, before: TreeNode, v: TreeNode): VNode {
  const first = moveButton(host, before, v, true);
  const rest = line(host, v, false);
  const last = rest[rest.length - 1];
  let inner: Array<VNode | string>;
  if (!last) inner = [h('span.tree-glue', ['(', first, ')'])];
  else if (last.sel?.startsWith('button')) inner = [h('span.tree-glue', ['(', first]), ...rest.slice(0, -1), h('span.tree-glue', [last, ')'])];
  else inner = [h('span.tree-glue', ['(', first]), ...rest, ')'];
  return h('span.tree-variation', { attrs: { 'data-testid': 'tree-variation' } }, inner);
}

/** The moves from `from` along its main line, with the variations of each step. */
function line(host: TreeHost, from: TreeNode, numberFirst: boolean): VNode[] {
  const out: VNode[] = [];
  let node = from;
  let numbered = numberFirst;
  for (;;) {
    const [main, ...variations] = node.children;
    if (!main) return out;
    out.push(moveButton(host, node, main, numbered));
    for (const v of variations) out.push(variation(host, node, v));
    numbered = variations.length > 0;
    node = main;
  }
}

/** The whole tree, inline. */
export function treeView(host: TreeHost): VNode {
  const moves = host.tree ? line(host, host.tree.root, true) : [];
  return h('div.tree-moves', { attrs: { 'data-testid': 'tree-moves', 'aria-label': t('game.moves') } }, moves.length ? moves : [h('span.muted', t('analysis.noMoves'))]);
}

/** The buttons that walk the tree. */
export function treeNav(host: TreeHost): VNode {
  const n = host.node;
  const atStart = !n?.parent;
  const atEnd = !n || lineEnd(n) === n;
  const btn = (testid: string, label: string, text: string, where: 'back' | 'forward' | 'start' | 'end', disabled: boolean) =>
    h('button.button', { attrs: { type: 'button', 'data-testid': testid, 'aria-label': label, title: label, disabled }, on: { click: () => host.step(where) } }, text);
  return h('div.review-nav', [
    btn('tree-first', t('review.first'), '«', 'start', atStart),
    btn('tree-prev', t('review.prev'), '‹', 'back', atStart),
    btn('tree-next', t('review.next'), '›', 'forward', atEnd),
    btn('tree-last', t('review.last'), '»', 'end', atEnd),
  ]);
}
