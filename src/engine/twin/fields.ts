// TypeScript twin of assembly/fields.ts: the same field spans, bit for bit.
import { hasAsciiDigit, isWhiteSpace } from '../../text/strings.js';
import { checkLineRanges, checkMaxFields } from '../contract.js';
import type { FieldSpans } from '../types.js';

/**
 * The first `maxFields` whitespace-separated fields of each line
 * text[starts[r], ends[r]) as spans (what `line.trim().split(/\s+/, maxFields)`
 * gives, with no string made). Past the first line's last field with a digit
 * (the rest of it is the shape's fixed text), a line ending as the first one
 * does has no other field, and is not read further.
 */
export function fieldSpans(
  text: string,
  starts: Int32Array,
  ends: Int32Array,
  count: number,
  maxFields: number,
): FieldSpans {
  checkLineRanges(text.length, starts, ends, count);
  checkMaxFields(maxFields);
  let spans = new Int32Array(16 * count);
  const first = new Int32Array(count + 1);
  let n = 0;
  let width = 0;
  /** The first line's part after its last field with a digit, and how many fields come before that part. */
  let tail = '';
  let fieldsBefore = -1;
  for (let r = 0; r < count; r++) {
    const end = ends[r]!;
    let k = starts[r]!;
    first[r] = n;
    for (let p = 0; p < maxFields; p++) {
      if (r > 0 && p === fieldsBefore && end - k === tail.length && text.startsWith(tail, k)) break;
      while (k < end && isWhiteSpace(text.charCodeAt(k))) k++;
      if (k >= end) break;
      const at = k;
      while (k < end && !isWhiteSpace(text.charCodeAt(k))) k++;
      if (2 * n + 2 > spans.length) {
        const grown = new Int32Array(spans.length * 2);
        grown.set(spans);
        spans = grown;
      }
      spans[2 * n] = at;
      spans[2 * n + 1] = k;
      n++;
      if (r === 0 && hasAsciiDigit(text, at, k)) {
        fieldsBefore = p + 1;
        tail = text.slice(k, end);
      }
    }
    width = Math.max(width, n - first[r]!);
  }
  first[count] = n;
  return { spans: spans.slice(0, 2 * n), first, width };
}
