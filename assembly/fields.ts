// The whitespace-separated fields of some lines, as spans of the text: what
// the anomaly scores read at each position of same-shape lines (a number far
// outside what the other lines hold there). One left-to-right scan per line;
// a line ending as the first line does past that line's last field with a
// digit (the shape's fixed text) is not read further. The twin is
// src/engine/twin/fields.ts; the differential test keeps the two in step.

let T: usize = 0; // the text of the current call

// @ts-ignore: decorator
@inline function at(i: i32): i32 {
  return <i32>load<u16>(T + (<usize>i << 1));
}

/** A unit JavaScript's `\s` matches (src/text/strings.ts isWhiteSpace). */
// @ts-ignore: decorator
@inline function isSpace(c: i32): bool {
  if (c <= 32) return c == 32 || <u32>(c - 9) < 5;
  if (c < 0xa0) return false;
  return c == 0xa0 || c == 0x1680 || <u32>(c - 0x2000) <= 10 || c == 0x2028 || c == 0x2029 ||
    c == 0x202f || c == 0x205f || c == 0x3000 || c == 0xfeff;
}

function hasDigit(a: i32, e: i32): bool {
  for (let k = a; k < e; k++) if (<u32>(at(k) - 48) < 10) return true;
  return false;
}

function sameUnits(a: i32, b: i32, n: i32): bool {
  return memory.compare(T + (<usize>a << 1), T + (<usize>b << 1), <usize>n << 1) == 0;
}

/**
 * For the `count` lines text[starts[r], ends[r]) (checked by the host),
 * the spans of each line's first `maxFields` fields: field f is
 * [outSpans[2f], outSpans[2f + 1]), line r's fields are outFirst[r] to
 * outFirst[r + 1] - 1 (count + 1 entries; outSpans holds count x maxFields x 2).
 * Past the first line's last field holding an ASCII digit, a line whose rest
 * is the first line's rest has no other field. Returns the most fields a line has.
 */
export function field_spans(
  text: usize,
  starts: usize,
  ends: usize,
  count: i32,
  maxFields: i32,
  outSpans: usize,
  outFirst: usize,
): i32 {
  T = text;
  let n = 0;
  let width = 0;
  let fieldsBefore = -1;
  let tailStart = 0;
  let tailLength = -1;
  for (let r = 0; r < count; r++) {
    const at4 = <usize>r << 2;
    const e = load<i32>(ends + at4);
    let k = load<i32>(starts + at4);
    store<i32>(outFirst + at4, n);
    const rowFirst = n;
    for (let p = 0; p < maxFields; p++) {
      if (r > 0 && p == fieldsBefore && e - k == tailLength && sameUnits(k, tailStart, tailLength)) break;
      while (k < e && isSpace(at(k))) k++;
      if (k >= e) break;
      const a = k;
      while (k < e && !isSpace(at(k))) k++;
      store<i32>(outSpans + (<usize>n << 3), a);
      store<i32>(outSpans + (<usize>n << 3) + 4, k);
      n++;
      if (r == 0 && hasDigit(a, k)) {
        fieldsBefore = p + 1;
        tailStart = k;
        tailLength = e - k;
      }
    }
    width = max(width, n - rowFirst);
  }
  store<i32>(outFirst + (<usize>count << 2), n);
  return width;
}
