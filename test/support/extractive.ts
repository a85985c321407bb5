// The extractive property (issue 11): every line of a line-shaped output that
// is not squeeze's own is an original line, in the original's order, and the
// spans its markers name are exactly the original lines it does not show (no
// line named twice, none shown and named, none left out unnamed).
// Checked by walking the output against the original's lines, retrieving each
// omitted span by slicing those lines with the marker's own numbers.
// Terminal colour and cursor codes do not count: the pipeline shows lines
// without them (src/pipeline/ansi.ts), so both sides are compared without.
import { parseSqueezeLine } from '../../src/processors/markers.js';
import { withoutTerminalCodes } from '../../src/text/ansi.js';

/** Lines as the pipeline numbers them: LF, CRLF and lone CR break; a final break adds no line. */
export function originalLines(text: string): string[] {
  const lines = text.split(/\r\n?|\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The first way `output` breaks the property against `original`, or null. */
export function extractiveViolation(original: string, output: string): string | null {
  if (output === original) return null; // passed through
  const plain = withoutTerminalCodes(original);
  const shown = withoutTerminalCodes(output);
  const violation = walk(plain, shown);
  // A compressed output ends with a line break (so a notice starts a line): whether that break ends the last
  // line or stands before an empty last line is the text's ambiguity; either reading may hold.
  if (violation !== null && shown.endsWith('\n')) return walk(plain, shown.slice(0, -1)) === null ? null : violation;
  return violation;
}

function walk(original: string, output: string): string | null {
  const lines = originalLines(original);
  const same = (i: number, line: string) => i < lines.length && lines[i] === line;
  // Processors that split at LF alone show a CRLF line with its CR: the original's bytes still.
  const out = output.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  // Omission markers first: their lines (named in place, or as a list where a summary sits) go out of the walk.
  const omitted = new Uint8Array(lines.length);
  for (let k = 0; k < out.length; k++) {
    const parsed = parseSqueezeLine(out[k]!);
    if (parsed?.type !== 'omission') continue;
    for (const span of parsed.spans) {
      for (let i = span.start - 1; i < span.start - 1 + span.count; i++) {
        if (i >= lines.length) return `output line ${k + 1} names line ${i + 1}, past the last line ${lines.length}`;
        if (omitted[i]) return `output line ${k + 1} names line ${i + 1}, named by an earlier marker too`;
        omitted[i] = 1;
      }
    }
  }
  let at = 0;
  const skip = () => {
    while (at < lines.length && omitted[at]) at++;
  };
  for (let k = 0; k < out.length; k++) {
    const line = out[k]!;
    skip();
    const where = () => `output line ${k + 1} ${JSON.stringify(line.slice(0, 160))} at original line ${at + 1}`;
    // An original line that happens to look like squeeze's syntax is still an original line.
    if (same(at, line)) {
      at++;
      continue;
    }
    const parsed = parseSqueezeLine(line);
    if (parsed === null)
      return `${where()}: not an original line (expected ${JSON.stringify(lines[at]?.slice(0, 160))})`;
    switch (parsed.type) {
      case 'note':
      case 'omission':
        break;
      case 'collapse':
        if (parsed.start !== at + 1) return `${where()}: collapse starts at ${parsed.start}, expected ${at + 1}`;
        for (let i = at; i < at + parsed.count; i++) {
          if (!same(i, parsed.line) || omitted[i]) return `${where()}: collapsed line ${i + 1} differs`;
        }
        at += parsed.count;
        break;
      case 'cut': {
        const source = lines[at] ?? '';
        let from = 0;
        for (const part of parsed.parts) {
          const found = source.indexOf(part, from);
          if (found < 0)
            return `${where()}: cut line's part ${JSON.stringify(part.slice(0, 60))} is not in the original line`;
          from = found + part.length;
        }
        at++;
        break;
      }
    }
  }
  skip();
  if (at !== lines.length)
    return `output ends at original line ${at + 1} of ${lines.length}: lines from ${at + 1} unaccounted for`;
  return null;
}
