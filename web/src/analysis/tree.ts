//! The analysis board's move tree as plain data: nodes the server computed
//! (SAN, FEN, legal moves, opening), paths from the root, variations,
//! navigation (back, forward along the main line, start, end), and the tree
//! written back as PGN movetext with variations in parentheses. No chess
//! rule is derived here: every position comes from the server.

/** An opening name from the server's ECO catalogue. */
export interface Opening {
  eco: string;
  name: string;
}

/** One position as the server gives it (`docs/protocol.md`, "Analysis board"). */
export interface NodeData {
  /** The node it was played from, as an index of the server's list (`null` for the root). */
  parent: number | null;
  uci: string | null;
  san: string | null;
  fen: string;
  /** Legal moves: from-square → to-squares. */
  dests: Record<string, string[]>;
  opening: Opening | null;
}

/** A node of the tree. */
export interface TreeNode {
  /** Unique in its tree, `0` for the root. */
  id: number;
  parent: TreeNode | null;
  /** The main line first, then the variations in the order they came. */
  children: TreeNode[];
  /** Plies from the root. */
  ply: number;
  uci: string | null;
  san: string | null;
  fen: string;
  dests: Record<string, string[]>;
  opening: Opening | null;
}

/** A tree of positions reached by moves from one root. */
export class MoveTree {
  readonly root: TreeNode;
  private next = 1;
  private readonly byId = new Map<number, TreeNode>();

  private constructor(root: NodeData) {
    this.root = { id: 0, parent: null, children: [], ply: 0, uci: null, san: null, fen: root.fen, dests: root.dests, opening: root.opening };
    this.byId.set(0, this.root);
  }

  /** The tree of the server's node list (root first, each parent before its children). */
  static of(nodes: NodeData[]): MoveTree {
    const first = nodes[0];
    if (!first || first.parent !== null) throw new Error('a tree starts at its root');
    const tree = new MoveTree(first);
    const made: TreeNode[] = [tree.root];
    for (const n of nodes.slice(1)) {
      const parent = n.parent === null ? undefined : made[n.parent];
      if (!parent) throw new Error('a node comes before its parent');
      made.push(tree.add(parent, n));
    }
    return tree;
  }

  /** The node `id`, if it is in the tree. */
  get(id: number): TreeNode | undefined {
    return this.byId.get(id);
  }

  /** Adds the position after a move from `parent`; a move already there is followed, not repeated. */
  add(parent: TreeNode, n: Omit<NodeData, 'parent'>): TreeNode {
    const known = parent.children.find((c) => c.uci === n.uci);
    if (known) return known;
    const node: TreeNode = { id: this.next++, parent, children: [], ply: parent.ply + 1, uci: n.uci, san: n.san, fen: n.fen, dests: n.dests, opening: n.opening };
    parent.children.push(node);
    this.byId.set(node.id, node);
    return node;
  }

  /** The nodes from the root to `node`, both included. */
  static path(node: TreeNode): TreeNode[] {
    const out: TreeNode[] = [];
    for (let n: TreeNode | null = node; n; n = n.parent) out.push(n);
    return out.reverse();
  }

  /** The main line from the root: each node's first child. */
  mainline(): TreeNode[] {
    return MoveTree.lineFrom(this.root);
  }

  /** `node` and the main line that follows it. */
  static lineFrom(node: TreeNode): TreeNode[] {
    const out = [node];
    for (let n = node.children[0]; n; n = n.children[0]) out.push(n);
    return out;
  }

  /** Makes `node`'s line the main line at every branching on its path. */
  promote(node: TreeNode): void {
    for (let n = node; n.parent; n = n.parent) {
      const siblings = n.parent.children;
      siblings.splice(siblings.indexOf(n), 1);
      siblings.unshift(n);
    }
  }

  /** Removes `node` and everything after it (never the root). */
  remove(node: TreeNode): void {
    if (!node.parent) return;
    node.parent.children = node.parent.children.filter((c) => c !== node);
    const drop = (n: TreeNode) => {
      this.byId.delete(n.id);
      n.children.forEach(drop);
    };
    drop(node);
  }
}

/** Where `←`, `→`, `↑`/Home and `↓`/End go from `node`. */
export function stepBack(node: TreeNode): TreeNode {
  return node.parent ?? node;
}

/** The next node along `node`'s main line, or `node` at the end. */
export function stepForward(node: TreeNode): TreeNode {
  return node.children[0] ?? node;
}

/** The end of `node`'s main line. */
export function lineEnd(node: TreeNode): TreeNode {
  let n = node;
  while (n.children[0]) n = n.children[0];
  return n;
}

/** The full-move number of the side to move in `fen`, and whether it is White. */
export function moveOf(fen: string): { number: number; white: boolean } {
  const f = fen.split(' ');
  const n = Number(f[5]);
  return { number: Number.isInteger(n) && n > 0 ? n : 1, white: f[1] !== 'b' };
}

/** `12.` before a White move, `12…` before a Black one. */
export function numberLabel(beforeFen: string): string {
  const m = moveOf(beforeFen);
  return `${m.number}${m.white ? '.' : '…'}`;
}

/** The deepest opening name on the path to `node` (the position itself or an ancestor). */
export function openingAt(node: TreeNode): Opening | null {
  for (let n: TreeNode | null = node; n; n = n.parent) if (n.opening) return n.opening;
  return null;
}

/** SANs from `fen` on, each with the move number it needs in front: `12.` before White's moves, `12...` before a first Black move. */
export function numberedTokens(fen: string, sans: string[]): { prefix: string; san: string }[] {
  const { number, white } = moveOf(fen);
  return sans.map((san, i) => {
    const whiteMoves = white ? i % 2 === 0 : i % 2 === 1;
    const n = number + Math.floor((i + (white ? 0 : 1)) / 2);
    return { prefix: whiteMoves ? `${n}. ` : i === 0 ? `${n}... ` : '', san };
  });
}

/** SANs as numbered text from `fen` on: `12. Nf3 Nc6 13. Bb5`, or `12... Nc6 13. Bb5` when Black starts. */
export function numbered(fen: string, sans: string[]): string {
  return numberedTokens(fen, sans)
    .map((t) => t.prefix + t.san)
    .join(' ');
}

/** The movetext of `tree` in PGN: the main line, each variation in parentheses after the move it replaces. */
export function movetext(tree: MoveTree): string {
  const out: string[] = [];
  const write = (from: TreeNode, forceNumber: boolean) => {
    let node = from;
    let force = forceNumber;
    for (;;) {
      const [main, ...variations] = node.children;
      if (!main) return;
      out.push(moveToken(node, main, force));
      for (const v of variations) {
        out.push('(');
        out.push(moveToken(node, v, true));
        write(v, false);
        out.push(')');
      }
      force = variations.length > 0;
      node = main;
    }
  };
  write(tree.root, true);
  return out.join(' ').replace(/\( /g, '(').replace(/ \)/g, ')');
}

function moveToken(before: TreeNode, move: TreeNode, force: boolean): string {
  const { number, white } = moveOf(before.fen);
  if (white) return `${number}. ${move.san ?? ''}`;
  return force ? `${number}... ${move.san ?? ''}` : (move.san ?? '');
}

/** The seven tags every PGN has, in their order, with their values when unknown. */
const ROSTER: Array<[string, string]> = [
  ['Event', '?'],
  ['Site', '?'],
  ['Date', '????.??.??'],
  ['Round', '?'],
  ['White', '?'],
  ['Black', '?'],
  ['Result', '*'],
];
const RESULTS = new Set(['1-0', '0-1', '1/2-1/2', '*']);

function tagLine(name: string, value: string): string {
  return `[${name} "${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]`;
}

/**
 * A PGN of `tree`: the loaded game's `tags` (the seven-tag roster first,
 * "?" for those it lacks, then its others), `SetUp`/`FEN` when it starts
 * elsewhere than the standard position, and its result after the moves.
 */
export function treePgn(tree: MoveTree, startFen: string, tags: ReadonlyArray<readonly [string, string]> = []): string {
  const given = new Map(tags.map(([k, v]) => [k, v]));
  const result = RESULTS.has(given.get('Result') ?? '') ? given.get('Result')! : '*';
  const lines = ROSTER.map(([k, unknown]) => tagLine(k, k === 'Result' ? result : (given.get(k) ?? unknown)));
  const roster = new Set(ROSTER.map(([k]) => k));
  // The set-up tags are written from the tree itself.
  for (const [k, v] of tags) if (!roster.has(k) && k !== 'SetUp' && k !== 'FEN') lines.push(tagLine(k, v));
  if (tree.root.fen !== startFen) lines.push('[SetUp "1"]', `[FEN "${tree.root.fen}"]`);
  const moves = movetext(tree);
  return `${lines.join('\n')}\n\n${moves ? `${moves} ` : ''}${result}\n`;
}
