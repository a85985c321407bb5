// Per-text features for routing: over the first lines of the line table, a
// shape word per line and the fields each line splits into by each delimiter;
// over the first characters, tag-like openings and line feeds. The sniffers
// (src/processors/*/index.ts `sniff`) read these instead of splitting the text.
// Each line is scanned a bounded number of times (once per delimiter), so the
// kernel is linear in the lines it is given. The layout is
// src/engine/contract.ts FEATURE; the differential test keeps the two in step.

// Keep in step with src/engine/contract.ts FEATURE.
const BLANK: u32 = 1 << 0;
const SEPARATOR: u32 = 1 << 1;
const MARKUP: u32 = 1 << 2;
const DATED: u32 = 1 << 3;
const CODE_END: u32 = 1 << 4;
const AT_AT: u32 = 1 << 5;
const DIFF_WORD: u32 = 1 << 6;

/** Delimiters counted, in order: tab, comma, semicolon, pipe, box-drawing bar. */
const DELIMITERS: i32 = 5;
/** Units of a line its fields are counted over (contract.ts FIELD_UNITS). */
const FIELD_UNITS: i32 = 4096;

let T: usize = 0; // the text of the current call

// @ts-ignore: decorator
@inline function at(i: i32): i32 {
  return <i32>load<u16>(T + (<usize>i << 1));
}
// @ts-ignore: decorator
@inline function isDigit(c: i32): bool { return <u32>(c - 48) < 10; }
// @ts-ignore: decorator
@inline function isLetter(c: i32): bool { return <u32>((c | 32) - 97) < 26; }

/** JavaScript's whitespace (what String.prototype.trim and \s remove). */
function isSpace(c: i32): bool {
  if (c <= 32) return c == 32 || <u32>(c - 9) < 5;
  if (c < 0xa0) return false;
  return c == 0xa0 || c == 0x1680 || <u32>(c - 0x2000) < 11 || c == 0x2028 || c == 0x2029 ||
    c == 0x202f || c == 0x205f || c == 0x3000 || c == 0xfeff;
}

/** A table rule's character: `-=+|:`, whitespace, or a box-drawing line or corner. */
function isRule(c: i32): bool {
  if (c == 45 || c == 61 || c == 43 || c == 124 || c == 58) return true;
  if (isSpace(c)) return true;
  switch (c) {
    case 0x2500: case 0x2501: case 0x2550: case 0x250c: case 0x2510: case 0x2514: case 0x2518:
    case 0x251c: case 0x2524: case 0x252c: case 0x2534: case 0x253c: case 0x255e: case 0x2561:
    case 0x256a: case 0x2554: case 0x2557: case 0x255a: case 0x255d: case 0x2560: case 0x2563:
    case 0x2566: case 0x2569: case 0x256c:
      return true;
  }
  return false;
}

/** Length of the digit run at `i` (< to). */
function digits(i: i32, to: i32): i32 {
  let n = 0;
  while (i + n < to && isDigit(at(i + n))) n++;
  return n;
}

// @ts-ignore: decorator
@inline function isDateSeparator(c: i32): bool { return c == 45 || c == 47 || c == 58 || c == 46; }

/** `[?\d{2,4}[-/:.]\d{1,2}[-/:.]\d{1,2}` at the line's start. */
function dated(from: i32, to: i32): bool {
  let i = from;
  if (i < to && at(i) == 91) i++;
  const year = digits(i, to);
  if (year < 2 || year > 4) return false;
  i += year;
  if (i >= to || !isDateSeparator(at(i))) return false;
  i++;
  const month = digits(i, to);
  if (month < 1 || month > 2) return false;
  i += month;
  if (i >= to || !isDateSeparator(at(i))) return false;
  return i + 1 < to && isDigit(at(i + 1));
}

/** The line ends as code does (`{}();,:`, `=>`, `*\/` before trailing space) or opens a comment (`//`, `#`, `*`). */
function codeEnd(from: i32, to: i32, lead: i32): bool {
  let last = to;
  while (last > from && isSpace(at(last - 1))) last--;
  if (last > from) {
    const c = at(last - 1);
    if (c == 123 || c == 125 || c == 40 || c == 41 || c == 59 || c == 44 || c == 58) return true;
    if (last - 2 >= from) {
      const b = at(last - 2);
      if ((b == 61 && c == 62) || (b == 42 && c == 47)) return true;
    }
  }
  if (lead < to) {
    const c = at(lead);
    if (c == 35 || c == 42) return true;
    if (c == 47 && lead + 1 < to && (at(lead + 1) == 47 || at(lead + 1) == 42)) return true;
  }
  return false;
}

/** Fields of text[from, to) split at `delimiter`, a double quote opening a field quoting it ("" inside is one). */
function fieldsBy(from: i32, to: i32, delimiter: i32): i32 {
  let fields = 1;
  let length = 0;
  let quoted = false;
  for (let i = from; i < to; i++) {
    const c = at(i);
    if (quoted) {
      if (c == 34 && i + 1 < to && at(i + 1) == 34) {
        length++;
        i++;
      } else if (c == 34) quoted = false;
      else length++;
    } else if (c == 34 && length == 0) quoted = true;
    else if (c == delimiter) {
      fields++;
      length = 0;
    } else length++;
  }
  return fields;
}

function shapeOf(from: i32, to: i32): u32 {
  let lead = from;
  while (lead < to && isSpace(at(lead))) lead++;
  if (lead == to) return from == to ? BLANK : BLANK | SEPARATOR;
  let shape: u32 = 0;
  let rule = true;
  for (let i = lead; i < to && rule; i++) rule = isRule(at(i));
  if (rule) shape |= SEPARATOR;
  if (at(lead) == 60 && lead + 1 < to) {
    const c = at(lead + 1);
    if (isLetter(c) || c == 33 || c == 47) shape |= MARKUP;
  }
  if (dated(from, to)) shape |= DATED;
  if (codeEnd(from, to, lead)) shape |= CODE_END;
  if (to - from >= 2 && at(from) == 64 && at(from + 1) == 64) shape |= AT_AT;
  if (to - from >= 5 && at(from) == 100 && at(from + 1) == 105 && at(from + 2) == 102 && at(from + 3) == 102 &&
    at(from + 4) == 32) shape |= DIFF_WORD;
  return shape;
}

/**
 * For lines [starts[i], ends[i]), i < count: `outShape[i]` its shape word,
 * `outFields[i * 5 + d]` the fields it splits into by delimiter d. Over the
 * first `sample` units of the text, `outTotals` gets the tag-like openings
 * (`<` and an ASCII letter, or `</` and one) and the line feeds. Returns `count`.
 */
export function text_features(
  text: usize, len: i32, starts: usize, ends: usize, count: i32,
  outShape: usize, outFields: usize, outTotals: usize, sample: i32,
): i32 {
  T = text;
  for (let i = 0; i < count; i++) {
    const from = load<i32>(starts + (<usize>i << 2));
    const to = load<i32>(ends + (<usize>i << 2));
    store<u32>(outShape + (<usize>i << 2), shapeOf(from, to));
    const row = outFields + (<usize>(i * DELIMITERS) << 2);
    const fieldsTo = to - from > FIELD_UNITS ? from + FIELD_UNITS : to;
    // Without a double quote a line's fields are its delimiters plus one: one pass counts all five.
    let tabs = 1, commas = 1, semicolons = 1, pipes = 1, bars = 1;
    let quote = false;
    for (let j = from; j < fieldsTo; j++) {
      const c = at(j);
      if (c == 9) tabs++;
      else if (c == 44) commas++;
      else if (c == 59) semicolons++;
      else if (c == 124) pipes++;
      else if (c == 0x2502) bars++;
      else if (c == 34) { quote = true; break; }
    }
    if (quote) {
      tabs = fieldsBy(from, fieldsTo, 9);
      commas = fieldsBy(from, fieldsTo, 44);
      semicolons = fieldsBy(from, fieldsTo, 59);
      pipes = fieldsBy(from, fieldsTo, 124);
      bars = fieldsBy(from, fieldsTo, 0x2502);
    }
    store<i32>(row, tabs);
    store<i32>(row + 4, commas);
    store<i32>(row + 8, semicolons);
    store<i32>(row + 12, pipes);
    store<i32>(row + 16, bars);
  }
  const scanned = sample < len ? sample : len;
  let openings = 0;
  let feeds = 0;
  for (let i = 0; i < scanned; i++) {
    const c = at(i);
    if (c == 10) feeds++;
    else if (c == 60 && i + 1 < scanned) {
      let name = i + 1;
      if (at(name) == 47) name++;
      if (name < scanned && isLetter(at(name))) openings++;
    }
  }
  store<i32>(outTotals, openings);
  store<i32>(outTotals + 4, feeds);
  return count;
}
