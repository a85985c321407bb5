// The outline of source code: which lines fold (declaration bodies, long
// comments) so that imports, declarations, signatures and the first line of
// each doc comment stay. Read by the code processor (a file read) and the diff
// processor (a big added hunk over the ceiling is shown as its outline).
import type { Tick } from '../errors.js';
import { READ_WINDOW } from './read-window.js';
import { type Block, headerText, nameOf, type Scan } from './scan.js';

/** Folds shorter than this cost about what their marker costs: shown instead. */
const MIN_FOLD = 3;
const CALLBACK = /^\s*[\w$.]+\(.*(?:=>|\bfunction\b[^(]*\([^)]*\))\s*\{\s*$/;
const ANONYMOUS = /^\s*(?:[[{(!]|define\(|module\.exports\s*=|export\s+default\s*\{|(?:async\s+)?function\s*\()/;

interface Node {
  readonly block: Block;
  readonly children: Node[];
}

/** The block's children are several and hold at least half of its `size` lines: it is made of members. */
function membersCover(children: readonly Node[], size: number): boolean {
  let covered = 0;
  for (const child of children) covered += child.block.to - child.block.from + 1;
  return children.length >= 2 && covered >= size / 2;
}

/** Blocks as a tree by line ranges; equal ranges keep the foldable one, partial overlaps are dropped. */
function tree(blocks: readonly Block[]): Node[] {
  const rank = { body: 0, container: 1, transparent: 2 } as const;
  const sorted = [...blocks].sort((a, b) => a.from - b.from || b.to - a.to || rank[a.kind] - rank[b.kind]);
  const roots: Node[] = [];
  const stack: Node[] = [];
  for (const block of sorted) {
    while (stack.length > 0 && stack.at(-1)!.block.to < block.from) stack.pop();
    const parent = stack.at(-1);
    if (parent && (block.to > parent.block.to || (block.from === parent.block.from && block.to === parent.block.to)))
      continue;
    const node: Node = { block, children: [] };
    (parent ? parent.children : roots).push(node);
    stack.push(node);
  }
  return roots;
}

export interface Fold {
  readonly from: number;
  readonly to: number;
  readonly label: string;
  /** What its lines count as in the omitted counts. */
  readonly omitted: string;
}

/**
 * The folds of an outline of `code` at light or aggressive: bodies of
 * declarations, long comments; `firstLine` is the file line number of
 * `code[0]` (a block opened before it is named by it).
 */
export function outline(
  code: readonly string[],
  found: Scan,
  aggressive: boolean,
  kept: (i: number) => boolean,
  tick: Tick,
  firstLine: number,
): Fold[] {
  const folds: Fold[] = [];
  const hidden = new Uint8Array(code.length);
  const fold = (from: number, to: number, label: string, keep: readonly number[], omitted = 'body lines') => {
    let start = from;
    for (let i = from; i <= to + 1; i++) {
      if (i <= to && !keep.includes(i) && !kept(i)) continue;
      if (i - start >= MIN_FOLD) {
        folds.push({ from: start, to: i - 1, label, omitted });
        hidden.fill(1, start, i);
      }
      start = i + 1;
    }
  };
  const yaml = found.blocks.some((b) => b.rank > 0);
  // describe('…', () => { it('…', …) }): a callback holding callbacks shows them, like a class its methods.
  const callback = (b: Block) => b.header >= 0 && CALLBACK.test(code[b.header]!);
  const suite = (block: Block, children: readonly Node[]) => callback(block) && children.some((c) => callback(c.block));
  // Depth first in order, on a stack of its own rather than by recursion: the nesting depth is the input's.
  const stack: { nodes: readonly Node[]; next: number; containers: number }[] = [
    { nodes: tree(found.blocks), next: 0, containers: 0 },
  ];
  while (stack.length > 0) {
    const frame = stack.at(-1)!;
    if (frame.next === frame.nodes.length) {
      stack.pop();
      continue;
    }
    tick();
    const { block, children } = frame.nodes[frame.next++]!;
    const { containers } = frame;
    // A block around most of the file shows its members: an anonymous one (a JSON root, an IIFE, a
    // UMD wrapper), or a module however it is named (`var ts = {}; ((module) => {` around all of
    // typescript.js): a body no read shows whole, most of it in blocks of its own.
    const size = block.to - block.from + 1;
    const wrapper =
      size >= Math.max(20, 0.6 * code.length) &&
      (ANONYMOUS.test(headerText(code, block.header)) || (size > READ_WINDOW.lines && membersCover(children, size)));
    let kind = block.kind === 'body' && (wrapper || suite(block, children)) ? 'container' : block.kind;
    if (yaml) kind = block.rank < (aggressive ? 1 : 2) ? 'container' : 'body';
    else if (kind === 'container' && aggressive && containers > 0 && !wrapper) kind = 'body';
    if (kind !== 'body') {
      stack.push({ nodes: children, next: 0, containers: containers + (kind === 'container' ? 1 : 0) });
      continue;
    }
    const label =
      block.header < 0
        ? `end of a block opened before line ${firstLine}`
        : found.sections
          ? `section "${code[block.header]!.replace(/^\s*(?:#+\s*|\[)|\]?\s*$/g, '')}"`
          : `body of ${nameOf(headerText(code, block.header))}`;
    fold(block.from, block.to, label, aggressive ? [] : block.keep);
  }
  // Comment runs still shown: light keeps them up to their first line of words, aggressive folds them.
  for (let i = 0; i < code.length; ) {
    tick();
    if (hidden[i] || !found.comment[i]) {
      i++;
      continue;
    }
    let end = i;
    while (end + 1 < code.length && found.comment[end + 1] && !hidden[end + 1]) end++;
    let from = i;
    if (!aggressive) while (from <= end && !/[A-Za-z]{2}/.test(code[from]!)) from++;
    fold(aggressive ? i : from + 1, end, 'comment', [], 'comment lines');
    i = end + 1;
  }
  return folds.sort((a, b) => a.from - b.from);
}
