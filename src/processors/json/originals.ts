// Where each container of a parsed document sits in the text it came from, so
// a record that stands out can be shown as the lines the tool printed (the
// model then quotes, greps and edits the original) instead of the compact
// rendering. One linear scan of the brackets, matched to the parsed value in
// document order.
import { stringEnd } from './parse.js';
import type { JsonValue } from './render.js';

/** Object keys JavaScript orders before the others: with one, parsed order and text order differ. */
const INDEX_KEY = /^(?:0|[1-9]\d*)$/;

/** Opening and closing offsets of every container, in the order they open. */
function containerSpans(text: string): number[] {
  const spans: number[] = [];
  const open: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) i = stringEnd(text, i);
    else if (c === 123 || c === 91) {
      open.push(spans.length);
      spans.push(i, -1);
    } else if ((c === 125 || c === 93) && open.length > 0) spans[open.pop()! + 1] = i + 1;
  }
  return spans;
}

export class Originals {
  private readonly spans = new WeakMap<object, readonly [number, number]>();

  /** `value` parsed from `text` (one document, not JSON lines). Maps nothing when the orders may differ. */
  constructor(
    private readonly text: string,
    value: JsonValue,
  ) {
    const spans = containerSpans(text);
    const found = new Map<object, readonly [number, number]>();
    const stack: JsonValue[] = [value];
    let k = 0;
    while (stack.length > 0) {
      const v = stack.pop()!;
      if (typeof v !== 'object' || v === null) continue;
      const at = spans[2 * k];
      if (at === undefined || (text.charCodeAt(at) === 91) !== Array.isArray(v)) return;
      found.set(v, [at, spans[2 * k + 1]!]);
      k++;
      const children = Array.isArray(v) ? v : Object.values(v);
      if (!Array.isArray(v) && Object.keys(v).some((key) => INDEX_KEY.test(key))) return;
      for (let c = children.length - 1; c >= 0; c--) stack.push(children[c]!);
    }
    if (k !== spans.length / 2) return;
    for (const [v, span] of found) this.spans.set(v, span);
  }

  /**
   * The whole lines that print `v` when it has lines of its own (nothing but
   * indentation before it, at most a comma after it): several, or one line
   * holding only `v` (`sqlite3 -json` and `jq -c` print a record a line).
   * Else null: a record inside a one-line document has no lines to show.
   */
  linesOf(v: JsonValue): string | null {
    if (typeof v !== 'object' || v === null) return null;
    const span = this.spans.get(v);
    if (!span || span[1] < 0) return null;
    const text = this.text;
    const from = text.lastIndexOf('\n', span[0] - 1) + 1;
    if (text.slice(from, span[0]).trim() !== '') return null;
    let to = text.indexOf('\n', span[1]);
    if (to === -1) to = text.length;
    const after = text.slice(span[1], to).trim();
    if (after !== '' && after !== ',') return null;
    return text.slice(from, text.charCodeAt(to - 1) === 13 ? to - 1 : to);
  }
}
