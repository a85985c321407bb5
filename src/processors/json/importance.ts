// Which parts of a JSON document are evidence: records carrying errors, failed
// outcomes or high severities, records holding preserved strings, and outliers
// (a record whose shape is unique among many alike, or whose value at some key
// path is rare among its array's records). Ranks are computed once,
// bottom-up, with the inline size of every container.
import { rawNumber } from './parse.js';
import { Column, rareCells } from '../../engine/index.js';
import { inline, type JsonValue, type PrunedNode } from './render.js';

export type JsonObject = { [key: string]: JsonValue };

// SonarQube's MAJOR is included: it is that tool's default level for real issues.
const SEVERE = /^(?:high|critical|error|fatal|blocker|major|severe|emergency|alert)$/i;
export const SEVERITY_KEYS = ['severity', 'level', 'baseSeverity', 'priority'];
const FAILED = /^(?:error|errored|fail|failed|failure|broken|crashed|timeout|timedout)$/i;
const OUTCOME_KEYS = ['result', 'status', 'outcome', 'state', 'conclusion', 'Action', 'action'];

export function isObject(v: JsonValue): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isNonEmpty(v: JsonValue | undefined): boolean {
  if (v === undefined || v === null || v === false || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (isObject(v)) return Object.keys(v).length > 0;
  return true;
}

function failedStatus(v: JsonValue | undefined): boolean {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) && n >= 100 && (n < 200 || n >= 300);
}

/** A record carrying an error or a high/critical severity. */
function isErrorRecord(o: JsonObject): boolean {
  if (isNonEmpty(o.error) || isNonEmpty(o.errors)) return true;
  if (SEVERITY_KEYS.some((k) => typeof o[k] === 'string' && SEVERE.test(o[k] as string))) return true;
  if (OUTCOME_KEYS.some((k) => typeof o[k] === 'string' && FAILED.test(o[k] as string))) return true;
  if (failedStatus(o.status) || failedStatus(o.statusCode)) {
    if ('message' in o) return true;
    return Object.values(o).some((v) => isObject(v) && ('message' in v || 'error' in v));
  }
  return false;
}

/**
 * Importance of every container: 2 = keep whole where possible (errors,
 * severities, preserved strings), 1 = holds something of rank 2 or is an outlier.
 */
export class Importance {
  private readonly rank = new WeakMap<object, number>();
  private readonly sizes = new WeakMap<object, number>();
  private readonly standing = new WeakMap<object, number>();

  constructor(
    root: JsonValue,
    private readonly preserve: readonly string[],
  ) {
    this.visit(root);
  }

  of(v: PrunedNode): number {
    if (typeof v === 'string') return this.preserved(v) ? 2 : 0;
    return typeof v === 'object' && v !== null ? (this.rank.get(v) ?? 0) : 0;
  }

  /** In how many key paths a record stands out among its array's records (0: none, or not a record of such an array). */
  standsOut(v: JsonValue): number {
    return typeof v === 'object' && v !== null ? (this.standing.get(v) ?? 0) : 0;
  }

  /** Length of the inline rendering, memoised per container. */
  size(v: JsonValue): number {
    if (typeof v !== 'object' || v === null) return inline(v).length;
    let s = this.sizes.get(v);
    if (s === undefined) {
      if (Array.isArray(v)) s = 2 + v.reduce<number>((a, x) => a + this.size(x) + 1, 0) - (v.length > 0 ? 1 : 0);
      else {
        const entries = Object.entries(v);
        s =
          2 + entries.reduce((a, [k, x]) => a + inline(k).length + 2 + this.size(x), 0) - (entries.length > 0 ? 1 : 0);
      }
      this.sizes.set(v, s);
    }
    return s;
  }

  preserved(s: string): boolean {
    return this.preserve.some((p) => p !== '' && s.includes(p));
  }

  private visit(v: JsonValue): number {
    if (typeof v === 'string') return this.preserved(v) ? 2 : 0;
    if (typeof v !== 'object' || v === null) return 0;
    const children = Array.isArray(v) ? v : Object.values(v);
    let inner = 0;
    for (const child of children) inner = Math.max(inner, this.visit(child));
    if (!Array.isArray(v)) {
      if (Object.keys(v).some((k) => this.preserved(k))) inner = 2;
    } else {
      this.markOutliers(v);
      this.markRareFields(v);
    }
    let rank = isObject(v) && isErrorRecord(v) ? 2 : inner > 0 ? 1 : 0;
    if (inner === 2 && !Array.isArray(v) && children.some((c) => typeof c === 'string' && this.preserved(c))) rank = 2;
    this.rank.set(v, Math.max(rank, this.rank.get(v) ?? 0));
    return rank;
  }

  /**
   * Records of an array whose value at some key path (`status.phase`,
   * `status.containerStatuses[0].state.waiting.reason`) is rare among the
   * array's records, missing where nearly all have it, or a numeric outlier
   * (src/engine/fields.ts): they are sampled before any other record (see
   * `standsOut`), and the containers on each rare path rank 1, so a cut record
   * keeps them.
   */
  private markRareFields(items: JsonValue[]): void {
    if (items.length < MIN_RECORDS || !items.every(isObject)) return;
    // Records of one kind (most share their keys), not a stream of events of many kinds, each rare.
    const shapes = new Map<string, number>();
    for (const item of items) {
      const shape = Object.keys(item as JsonObject).join(',');
      shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
    }
    let dominant = 0;
    for (const k of shapes.values()) dominant = Math.max(dominant, k);
    if (dominant < 0.6 * items.length) return;
    const leaves = items.map((item) => flatten(item as JsonObject));
    const paths = new Map<string, number>();
    for (const record of leaves) for (const path of record.keys()) paths.set(path, (paths.get(path) ?? 0) + 1);
    const standsOut = new Uint16Array(items.length);
    for (const path of [...paths.keys()].slice(0, MAX_PATHS)) {
      for (const r of rareCells(new Column(leaves.map((record) => record.get(path)?.value)))) {
        standsOut[r]!++;
        // The containers on the path a record stands out in survive its cut.
        for (const container of leaves[r]!.get(path)?.within ?? []) {
          this.rank.set(container, Math.max(1, this.rank.get(container) ?? 0));
        }
      }
    }
    items.forEach((item, r) => {
      if (standsOut[r]! > 0) this.standing.set(item as object, standsOut[r]!);
    });
  }

  /** Records whose key set is unique in an array dominated by one shape. */
  private markOutliers(items: JsonValue[]): void {
    if (items.length < 5) return;
    const shapes = new Map<string, number>();
    const shapeOf = (o: JsonValue) => (isObject(o) ? Object.keys(o).join(',') : typeof o);
    for (const item of items) shapes.set(shapeOf(item), (shapes.get(shapeOf(item)) ?? 0) + 1);
    let dominant = 0;
    for (const n of shapes.values()) if (n > dominant) dominant = n;
    if (dominant < 0.6 * items.length) return;
    for (const item of items) {
      if (isObject(item) && shapes.get(shapeOf(item)) === 1) this.rank.set(item, Math.max(1, this.rank.get(item) ?? 0));
    }
  }
}

/** Fewest records in an array before a value can be rare among them. */
const MIN_RECORDS = 10;
/** Key paths looked at per array, and leaves per record: enough for pods, events, findings. */
const MAX_PATHS = 80;
const MAX_LEAVES = 120;
const MAX_DEPTH = 6;

interface Leaf {
  /** The value as a cell: strings as they are, other scalars as JSON prints them. */
  readonly value: string;
  /** The containers between the record and the value (the record excluded). */
  readonly within: readonly object[];
}

/** A record's scalar leaves by key path (`a.b[0].c`, arrays by their first item), at most MAX_LEAVES, MAX_DEPTH deep. */
function flatten(record: JsonObject): Map<string, Leaf> {
  const out = new Map<string, Leaf>();
  const walk = (v: JsonValue, path: string, within: readonly object[], depth: number) => {
    if (out.size >= MAX_LEAVES) return;
    if (typeof v !== 'object' || v === null) {
      // An over-precise number the parser kept as a string is the number it prints.
      const value = typeof v !== 'string' ? String(v) : (rawNumber(v) ?? v);
      out.set(path, { value, within });
      return;
    }
    if (depth >= MAX_DEPTH) return;
    const inside = depth === 0 || Array.isArray(v) ? within : [...within, v];
    // An array's first item only: later indices are present in the records
    // with longer arrays, a rarity that says nothing (and their own arrays
    // are compared among themselves).
    if (Array.isArray(v)) {
      if (v.length > 0) walk(v[0]!, `${path}[0]`, inside, depth + 1);
    } else for (const [k, x] of Object.entries(v)) walk(x, path === '' ? k : `${path}.${k}`, inside, depth + 1);
  };
  walk(record, '', [], 0);
  return out;
}
