// Fitting a JSON value into a character budget. Budget flows top-down: each
// container shares its budget among its children by weight (max-min fair), so
// small values stay whole and big ones are sampled or cut. Arrays keep their
// important items (errors, high severities, outliers, preserved strings) plus
// a head, a tail and evenly spread samples; every cut leaves an exact marker.
import { SEVERITY_KEYS, isObject, type Importance, type JsonObject } from './importance.js';
import { jsonItems, omission } from '../markers.js';
import type { Originals } from './originals.js';
import {
  CutString,
  Marker,
  Original,
  PrunedArray,
  PrunedObject,
  inline,
  type JsonValue,
  type PrunedNode,
} from './render.js';

export interface FitOptions {
  /** Most items kept per array (important items come on top, up to `maxImportant`). */
  maxSamples: number;
  maxImportant: number;
  /** Strings no longer than this are never cut. */
  shortString: number;
  /** Characters records of rank 2 may take beyond the budget (evidence first). */
  evidenceChars: number;
  /**
   * Where records sit in the original text: with it, every big record (not a
   * table row) that stands out or carries evidence is kept (up to
   * maxImportant), shown as its original lines while the evidence characters
   * last.
   */
  originals?: Originals | undefined;
  /** Characters the original lines may take, beyond the budget. */
  originalChars?: number;
}

export interface FitCounts {
  items: number;
  keys: number;
  characters: number;
}

const LOW_VALUE_KEY =
  /^(?:req)?headers$|^_links$|^links$|^node_id$|^gravatar_id$|^rulesMeta$|^evidenceCollected$|^(?:md5|sha1|sha256)$/;
/** Keys that name or locate a record, or say what went wrong: kept first. */
const IDENTITY_KEY =
  /^(?:id|key|name|title|message|error|errors|status|statusCode|severity|path|file|fileName|filePath|html_url|web_url|ruleId|cve)$/;
const SIGNAL_KEY =
  /^(?:id|key|name|title|message|messages|error|errors|status|statusCode|code|severity|level|path|file|fileName|filePath|html_url|url|rule|ruleId|reason|description|summary|cve|cves|module_name|vulnerabilities)$/;
const MIN_SHARE = 24;
const SMALL_ITEM = 200;
/** Fewest characters a sampled item must get to be worth showing. */
const USEFUL_SAMPLE = 60;
/** Characters a gap marker takes, with its line or separator. */
const GAP_COST = 30;

/**
 * Indices to keep from n items: important ones; then, when some items stand
 * out among the others (`unusual`, most telling first), the first item and as
 * many of those as `want` allows; then a contiguous head (half of what is
 * left), a contiguous tail (a quarter) and the rest evenly spread, so few gap
 * markers are needed.
 */
function sample(n: number, important: number[], wanted: number, maxImportant: number, unusual: number[]): number[] {
  const keep = new Set<number>(important.slice(0, maxImportant));
  let want = wanted;
  if (unusual.length > 0 && want > 0) {
    keep.add(0);
    want--;
    for (const i of unusual) {
      if (want === 0) break;
      if (!keep.has(i)) want--;
      keep.add(i);
    }
  }
  const head = Math.ceil(want / 2);
  const tail = Math.floor(want / 4);
  const spread = want - head - tail;
  for (let i = 0; i < head; i++) keep.add(i);
  for (let i = 0; i < tail; i++) keep.add(n - 1 - i);
  for (let k = 1; k <= spread; k++) keep.add(head + Math.floor((k * (n - head - tail)) / (spread + 1)));
  return [...keep].filter((i) => i >= 0 && i < n).sort((a, b) => a - b);
}

/** Max-min fair shares of `budget` for items of `sizes` with `weights`. */
function shares(sizes: number[], weights: number[], budget: number): number[] {
  const result = new Array<number>(sizes.length).fill(0);
  let open = sizes.map((_, i) => i);
  let left = budget;
  while (open.length > 0 && left > 0) {
    const totalWeight = open.reduce((a, i) => a + weights[i]!, 0);
    const satisfied = open.filter((i) => sizes[i]! - result[i]! <= (left * weights[i]!) / totalWeight);
    if (satisfied.length === 0) {
      for (const i of open) result[i] = result[i]! + (left * weights[i]!) / totalWeight;
      break;
    }
    for (const i of satisfied) {
      left -= sizes[i]! - result[i]!;
      result[i] = sizes[i]!;
    }
    open = open.filter((i) => !satisfied.includes(i));
  }
  return result;
}

/** Breakdown of omitted records by a categorical field, when they have one. */
function breakdown(items: JsonValue[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) {
    if (!isObject(item)) continue;
    const key = SEVERITY_KEYS.find((k) => typeof item[k] === 'string');
    if (key) out[item[key] as string] = (out[item[key] as string] ?? 0) + 1;
  }
  return out;
}

/** `$.a.b` for identifier keys, `$["a b"]` otherwise. */
function memberPath(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function lineCount(text: string): number {
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

export class Fitter {
  readonly counts: FitCounts = { items: 0, keys: 0, characters: 0 };
  /** Records shown as their original lines, and their characters. */
  originalsShown = 0;
  originalChars = 0;
  private evidenceLeft: number;

  constructor(
    private readonly importance: Importance,
    private readonly options: FitOptions,
  ) {
    this.evidenceLeft = options.evidenceChars;
  }

  /** `path` names `v` in the document (`$.results[3].tags`): its markers say where they cut. */
  fit(v: JsonValue, budget: number, path = '$'): PrunedNode {
    if (this.importance.size(v) <= budget) return v;
    if (typeof v === 'string') return this.cutString(v, budget);
    if (Array.isArray(v)) return this.fitArray(v, budget, path);
    if (isObject(v)) return this.fitObject(v, budget, path);
    return v;
  }

  private cutString(s: string, budget: number): PrunedNode {
    if (s.length <= this.options.shortString || this.importance.preserved(s)) return s;
    let keep = Math.max(this.options.shortString, Math.floor(budget) - 30);
    if (keep >= s.length - 40) return s;
    const code = s.charCodeAt(keep - 1);
    if (code >= 0xd800 && code <= 0xdbff) keep--; // never split a surrogate pair
    this.counts.characters += s.length - keep;
    return new CutString(s.slice(0, keep), omission(s.length - keep, 'character'));
  }

  private fitArray(items: JsonValue[], budget: number, path: string): PrunedArray {
    const fitted = this.fitItems(items, budget, 'item', path, (i) => `${path}[${i}]`);
    const indices = fitted.flatMap((f) => (f instanceof Marker ? [] : [f[0]]));
    return new PrunedArray(
      fitted.map((f) => (f instanceof Marker ? f : f[1])),
      items.length,
      indices,
    );
  }

  /** Kept items as [source index, fitted node], gaps as markers, in order. */
  private fitItems(
    items: JsonValue[],
    budget: number,
    unit: string,
    path: string,
    child: (i: number) => string,
  ): Array<[number, PrunedNode] | Marker> {
    const n = items.length;
    const important = items.map((_, i) => i).filter((i) => this.importance.of(items[i]!) > 0);
    important.sort((a, b) => this.importance.of(items[b]!) - this.importance.of(items[a]!) || a - b);
    const average = this.importance.size(items) / Math.max(1, n);
    // Small records (log events, rows) are kept whole, more of them; big ones share the budget.
    const small = average <= SMALL_ITEM;
    const perItem = small ? average * 1.1 : Math.max(MIN_SHARE * 4, Math.min(average, SMALL_ITEM));
    const affordable = Math.max(1, Math.floor(budget / (perItem + GAP_COST / 2)));
    const cap = small ? this.options.maxSamples * 5 : this.options.maxSamples;
    const want = Math.min(n, cap, affordable);
    const unusual = items.map((_, i) => i).filter((i) => this.importance.standsOut(items[i]!) > 0);
    unusual.sort((a, b) => this.importance.standsOut(items[b]!) - this.importance.standsOut(items[a]!) || a - b);
    // Records that stand out are shown whole as printed: big ones (pods, findings) on their lines, small ones
    // only where the tool printed each on a line of its own (query rows as JSON); else they stay table rows.
    const originals = small && !this.printedOneALine(items) ? undefined : this.options.originals;
    const first = originals ? [...important, ...unusual.filter((i) => this.importance.of(items[i]!) === 0)] : important;
    const kept = sample(n, first, want, this.options.maxImportant, unusual);
    const gaps = kept.filter((k, j) => k !== (j === 0 ? 0 : kept[j - 1]! + 1)).length + (kept.at(-1)! < n - 1 ? 1 : 0);
    const room = budget - gaps * GAP_COST;
    const sizes = kept.map((i) => this.importance.size(items[i]!));
    const weights = kept.map((i) => 1 + 2 * this.importance.of(items[i]!));
    const given = shares(sizes, weights, room);
    const evidence = kept.filter((i) => this.importance.of(items[i]!) === 2).length;
    const floor = Math.max(0, this.evidenceLeft) / Math.max(1, evidence);
    kept.forEach((index, j) => {
      if (this.importance.of(items[index]!) < 2 || given[j]! >= sizes[j]!) return;
      const extra = Math.min(sizes[j]!, floor) - given[j]!;
      if (extra > 0) {
        given[j] = given[j]! + extra;
        this.evidenceLeft -= extra;
      }
    });
    const out: Array<[number, PrunedNode] | Marker> = [];
    let next = 0;
    kept.forEach((index, j) => {
      // A sample too starved to show anything useful joins the gap instead.
      const item = items[index]!;
      const starved = given[j]! < Math.min(sizes[j]!, USEFUL_SAMPLE);
      if (starved && this.importance.of(item) === 0 && !(originals && this.importance.standsOut(item) > 0)) return;
      if (index > next) out.push(this.gap(items, next, index, unit, path));
      out.push([
        index,
        (originals && this.original(items[index]!, small)) || this.fit(items[index]!, given[j]!, child(index)),
      ]);
      next = index + 1;
    });
    if (next < n) out.push(this.gap(items, next, n, unit, path));
    return out;
  }

  /** The first records of `items` that have lines of their own each have one line. */
  private printedOneALine(items: readonly JsonValue[]): boolean {
    const printed = items
      .slice(0, 4)
      .map((item) => this.options.originals?.linesOf(item) ?? null)
      .filter((lines) => lines !== null);
    return printed.length > 0 && printed.every((lines) => lineCount(lines) === 1);
  }

  /**
   * A record that stands out or carries evidence, as its original lines, while
   * their characters last; `oneLine`: only if the tool printed it on one line
   * (a small record is a table row otherwise).
   */
  private original(item: JsonValue, oneLine: boolean): Original | null {
    const originals = this.options.originals;
    if (!originals || (this.importance.standsOut(item) === 0 && this.importance.of(item) < 2)) return null;
    const lines = originals.linesOf(item);
    if (lines === null) return null;
    // A flat record reads the same compact as one key a line; a nested one
    // (pods, findings) loses its inner lines there (`"reason": "OOMKilled"`).
    // A record on one line is shown as printed: its keys named, greppable.
    const printed = lineCount(lines);
    if (printed > 1 && (oneLine || printed <= Object.keys(item as object).length + 2)) return null;
    if (this.originalChars + lines.length > (this.options.originalChars ?? 0)) return null;
    this.originalChars += lines.length;
    this.originalsShown++;
    return new Original(item, lines);
  }

  /** Items [from, to) of the array (or map) at `path` left out. */
  private gap(items: JsonValue[], from: number, to: number, unit: string, path: string): Marker {
    this.counts.items += to - from;
    return new Marker(jsonItems(path, from, to, unit, breakdown(items.slice(from, to))));
  }

  private fitObject(o: JsonObject, budget: number, path: string): PrunedNode {
    const entries = Object.entries(o);
    const containers = entries.filter(([, v]) => typeof v === 'object' && v !== null).length;
    if (entries.length >= 20 && containers >= 0.8 * entries.length) return this.fitMap(entries, budget, path);
    const keyCost = entries.map(([k]) => inline(k).length + 2);
    const sizes = entries.map(([, v]) => this.importance.size(v));
    const weights = entries.map(([k, v]) => this.weight(k, v));
    const divisible = entries.map(([, v], i) =>
      typeof v === 'object' && v !== null ? true : sizes[i]! > this.options.shortString,
    );
    // Small values first, whole, by weight; then big ones share what is left.
    const order = entries
      .map((_, i) => i)
      .filter((i) => !divisible[i])
      .sort((a, b) => weights[b]! - weights[a]! || a - b);
    const hasBig = divisible.some(Boolean);
    let left = budget - 24;
    const smallRoom = hasBig ? left * 0.6 : left;
    const fitted = new Map<number, PrunedNode>();
    let usedSmall = 0;
    // A record holding evidence keeps what identifies it (name, id, path, ...).
    const carriesEvidence = this.importance.of(o) > 0;
    for (const i of order) {
      const cost = keyCost[i]! + sizes[i]!;
      const identifies = carriesEvidence && SIGNAL_KEY.test(entries[i]![0]);
      if (usedSmall + cost <= smallRoom || identifies || this.importance.of(entries[i]![1]) > 0) {
        fitted.set(i, entries[i]![1]);
        usedSmall += cost;
      }
    }
    left -= usedSmall;
    const big = entries.map((_, i) => i).filter((i) => divisible[i]);
    const given = shares(
      big.map((i) => sizes[i]!),
      big.map((i) => weights[i]!),
      left - big.reduce((a, i) => a + keyCost[i]!, 0),
    );
    big.forEach((i, j) => {
      // A value too starved to show anything is left out whole (and counted as a key).
      if (given[j]! >= USEFUL_SAMPLE || this.importance.of(entries[i]![1]) > 0)
        fitted.set(i, this.fit(entries[i]![1], Math.max(given[j]!, MIN_SHARE), memberPath(path, entries[i]![0])));
    });
    const kept: Array<[string, PrunedNode] | Marker> = [];
    entries.forEach(([k], i) => {
      if (fitted.has(i)) kept.push([k, fitted.get(i)!]);
    });
    const dropped = entries.length - fitted.size;
    if (dropped > 0) {
      this.counts.keys += dropped;
      kept.push(new Marker(omission(dropped, `key of ${path}`, {}, `keys of ${path}`)));
    }
    return new PrunedObject(kept);
  }

  private weight(key: string, v: JsonValue): number {
    const rank = this.importance.of(v);
    if (rank > 0) return 2 + 2 * rank;
    if (LOW_VALUE_KEY.test(key)) return 0.15;
    if (IDENTITY_KEY.test(key)) return 3;
    if (SIGNAL_KEY.test(key)) return 2;
    return /_url$/.test(key) ? 0.5 : 1;
  }

  /** Objects used as maps (ids -> records) are sampled like arrays, keys kept. */
  private fitMap(entries: Array<[string, JsonValue]>, budget: number, path: string): PrunedObject {
    const child = (i: number) => memberPath(path, entries[i]![0]);
    const fitted = this.fitItems(
      entries.map(([, v]) => v),
      budget - entries.length * 2,
      'record',
      path,
      child,
    );
    return new PrunedObject(fitted.map((f) => (f instanceof Marker ? f : [entries[f[0]]![0], f[1]])));
  }
}
