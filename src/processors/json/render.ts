// Compact rendering of (possibly pruned) JSON values. The inline form is JSON
// with the quotes dropped where they carry no information, so it is never
// longer than minified JSON; the block form puts records on lines and uniform
// arrays of objects in a header + rows table (a lossless tabular form).

import { rawNumber } from './parse.js';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** An omission marker standing in for items, keys or characters. */
export class Marker {
  constructor(readonly text: string) {}
}

/** A string cut short: the kept head, then its omission marker. */
export class CutString {
  constructor(
    readonly head: string,
    readonly marker: string,
  ) {}
}

/** An array after sampling: kept items (with their source indices) and gap markers. */
export class PrunedArray {
  constructor(
    readonly items: PrunedNode[],
    readonly length: number,
    readonly indices: number[],
  ) {}
}

/** An object after pruning: kept entries in original order, and markers. */
export class PrunedObject {
  constructor(readonly entries: Array<[string, PrunedNode] | Marker>) {}
}

/** A record shown as the lines the original text prints it on (src/processors/json/originals.ts). */
export class Original {
  constructor(
    readonly value: JsonValue,
    readonly lines: string,
  ) {}
}

export type PrunedNode = JsonValue | Marker | CutString | PrunedArray | PrunedObject | Original;

const BARE_KEY = /^[A-Za-z_$@][\w$@.\-/]*$/;
// A string can go unquoted when it cannot be mistaken for syntax or another type.
const UNSAFE_BARE =
  /[",{}[\]\\|\u0000-\u001f\u2028\u2029]|^\s|\s$|^$|^-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?$|^(?:true|false|null)$|^[-:]|^\(same as /;

export function renderKey(key: string): string {
  return BARE_KEY.test(key) ? key : JSON.stringify(key);
}

function renderString(s: string): string {
  const raw = rawNumber(s);
  if (raw !== null) return raw;
  return UNSAFE_BARE.test(s) ? JSON.stringify(s) : s;
}

function isPlainObject(node: unknown): node is { [key: string]: JsonValue } {
  return (
    typeof node === 'object' &&
    node !== null &&
    !Array.isArray(node) &&
    Object.getPrototypeOf(node) === Object.prototype
  );
}

/** Entries of an object node (plain or pruned), markers included. */
export function entriesOf(node: PrunedObject | { [key: string]: JsonValue }): Array<[string, PrunedNode] | Marker> {
  return node instanceof PrunedObject ? node.entries : Object.entries(node);
}

function itemsOf(node: PrunedArray | JsonValue[]): PrunedNode[] {
  return node instanceof PrunedArray ? node.items : node;
}

/** Source index of item i (markers have none). */
function indexOf(node: PrunedArray | JsonValue[], i: number, seen: number): number {
  return node instanceof PrunedArray ? node.indices[seen]! : i;
}

/** Smallest repeated subtree worth a reference, in characters of its inline form. */
const MIN_REFERENCE = 80;

/**
 * Lossless deduplication of repeated subtrees: a later copy of an unpruned
 * container renders as `(same as <path>)`, naming its first occurrence. The
 * renderers visit nodes in document order, so references always point back.
 */
export class References {
  private readonly first = new Map<string, string>();

  /** `canonical` caches minified forms; share it between renderings of one document. */
  constructor(private readonly canonical = new WeakMap<object, string>()) {}

  /** Minified JSON of a plain container, cached. */
  minified(node: JsonValue[] | { [key: string]: JsonValue }): string {
    let s = this.canonical.get(node);
    if (s === undefined) this.canonical.set(node, (s = JSON.stringify(node)));
    return s;
  }

  reference(node: PrunedNode, path: string): string | null {
    if (typeof node !== 'object' || node === null || !(Array.isArray(node) || isPlainObject(node))) return null;
    const canonical = this.minified(node);
    if (canonical.length < MIN_REFERENCE) return null;
    const first = this.first.get(canonical);
    if (first === undefined) {
      this.first.set(canonical, path);
      return null;
    }
    return first === path ? null : `(same as ${first || 'the whole document'})`;
  }
}

function child(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`;
}

/** One-line rendering of any node; with `refs`, repeated subtrees become references. */
export function inline(node: PrunedNode, refs?: References, path = ''): string {
  if (node === null || typeof node === 'boolean' || typeof node === 'number') return JSON.stringify(node);
  if (typeof node === 'string') return renderString(node);
  if (node instanceof Marker) return node.text;
  if (node instanceof CutString) return `${renderString(node.head)}${node.marker}`;
  if (node instanceof Original) return inline(node.value, refs, path);
  const ref = refs?.reference(node, path);
  if (ref) return ref;
  if (Array.isArray(node) || node instanceof PrunedArray) {
    let seen = 0;
    const items = itemsOf(node).map((item, i) =>
      item instanceof Marker ? item.text : inline(item, refs, child(path, indexOf(node, i, seen++))),
    );
    return `[${items.join(',')}]`;
  }
  const parts = entriesOf(node).map((e) =>
    e instanceof Marker ? e.text : `${renderKey(e[0])}:${inline(e[1], refs, child(path, e[0]))}`,
  );
  return `{${parts.join(',')}}`;
}

/** Block rendering: records on their own lines, tables for uniform arrays. */
export function block(
  node: PrunedNode,
  options: { lineWidth: number; maxDepth: number; bareLines?: boolean },
  refs = new References(),
): string {
  const lines: string[] = [];
  const write = (n: PrunedNode, indent: string, depth: number, label: string, path: string): void => {
    if (n instanceof Original) {
      lines.push(n.lines);
      return;
    }
    const isArray = Array.isArray(n) || n instanceof PrunedArray;
    const isObject = !isArray && (isPlainObject(n) || n instanceof PrunedObject);
    const reference = refs.reference(n, path);
    if (reference) {
      lines.push(`${indent}${label}${reference}`);
      return;
    }
    // Plain containers are measured by their cached minified form (an upper bound), not re-rendered.
    const width = Array.isArray(n) || isPlainObject(n) ? refs.minified(n).length : inline(n, refs, path).length;
    if (
      (!isArray && !isObject) ||
      depth >= options.maxDepth ||
      width + indent.length + label.length <= options.lineWidth
    ) {
      lines.push(`${indent}${label}${inline(n, refs, path)}`);
      return;
    }
    if (isArray) {
      const arr = n as PrunedArray | JsonValue[];
      const items = itemsOf(arr);
      const table = tabulate(arr, refs, path);
      const name = label.trimEnd().replace(/:$/, '');
      if (table && table.length < width) {
        lines.push(`${indent}${name}[${arr.length}]{${table.header}}:`);
        for (const row of table.rows) lines.push(`${indent} ${row}`);
        return;
      }
      if (depth === 0 && options.bareLines) {
        let seen = 0;
        items.forEach((item, i) => {
          lines.push(item instanceof Marker ? item.text : inline(item, refs, child(path, indexOf(arr, i, seen++))));
        });
        return;
      }
      lines.push(`${indent}${name}[${arr.length}]:`);
      let seen = 0;
      items.forEach((item, i) => {
        if (item instanceof Marker) lines.push(`${indent} ${item.text}`);
        else write(item, `${indent} `, depth + 1, '- ', child(path, indexOf(arr, i, seen++)));
      });
      return;
    }
    if (label) lines.push(`${indent}${label.trimEnd()}`);
    const childIndent = label ? `${indent} ` : indent;
    for (const entry of entriesOf(n as PrunedObject)) {
      if (entry instanceof Marker) lines.push(`${childIndent}${entry.text}`);
      else write(entry[1], childIndent, depth + 1, `${renderKey(entry[0])}:`, child(path, entry[0]));
    }
  };
  write(node, '', 0, '', '');
  return lines.join('\n');
}

/** Longer values make rows unreadable; such records go one per block instead. */
const MAX_CELL = 120;

interface Table {
  header: string;
  rows: string[];
  length: number;
}

/**
 * Uniform arrays of objects as a header of keys and one row per item; a
 * missing key is an empty cell. Only for objects whose values are scalars or
 * short inline containers, and only when most items share most keys.
 */
function tabulate(arr: PrunedArray | JsonValue[], refs: References | undefined, path: string): Table | null {
  const items = itemsOf(arr);
  // A record shown as printed is a row as its one line (its keys named there, not in the header);
  // one on several lines needs a block.
  if (items.some((i) => i instanceof Original && i.lines.includes('\n'))) return null;
  const records = items.filter((i) => !(i instanceof Marker) && !(i instanceof Original));
  if (records.length < 2) return null;
  const keys: string[] = [];
  const seen = new Set<string>();
  let filled = 0;
  for (const record of records) {
    if (!(isPlainObject(record) || record instanceof PrunedObject)) return null;
    for (const entry of entriesOf(record)) {
      if (entry instanceof Marker) return null;
      filled++;
      if (!seen.has(entry[0])) {
        seen.add(entry[0]);
        keys.push(entry[0]);
      }
    }
  }
  if (keys.length === 0 || keys.length > 40 || filled < 0.7 * keys.length * records.length) return null;
  const rows: string[] = [];
  let length = 0;
  let kept = 0;
  for (const [i, item] of items.entries()) {
    if (item instanceof Marker) {
      rows.push(item.text);
    } else if (item instanceof Original) {
      kept++;
      // The line as printed, without the comma that separated it from the next record.
      rows.push(item.lines.trim().replace(/,$/, ''));
    } else {
      const itemPath = child(path, indexOf(arr, i, kept++));
      const values = new Map(entriesOf(item as PrunedObject) as Array<[string, PrunedNode]>);
      const cells = keys.map((k) => (values.has(k) ? inline(values.get(k)!, refs, child(itemPath, k)) : ''));
      if (cells.some((c) => c.length > MAX_CELL)) return null;
      rows.push(cells.join(','));
    }
    length += rows[rows.length - 1]!.length + 3;
  }
  const header = keys.map(renderKey).join(',');
  return { header, rows, length: length + header.length };
}
