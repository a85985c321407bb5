// Lines too long to analyse: a line of megabytes (a minified bundle, a
// progress bar without breaks, a log with no newline) costs every line kernel
// and every processor its whole length for one line's worth of evidence.
// Past MAX_LINE_CHARS the line-shaped processors see one marker line in its
// place (the same line count, so markers' line numbers stay the original's);
// the original keeps it whole for retrieval.
import { omittedLines } from '../processors/markers.js';
import { lineEndAt } from '../text/line-breaks.js';
import { count } from '../text/strings.js';

/** Longest line analysed as it is, in UTF-16 units. */
export const MAX_LINE_CHARS = 65_536;
/** Characters of a long line quoted in its marker. */
const PREVIEW_CHARS = 120;

/** The marker standing for line `number` (1-based) of `length` characters. */
function marker(number: number, line: string, length: number): string {
  let head = line.slice(0, PREVIEW_CHARS);
  if (/[\ud800-\udbff]$/.test(head)) head = head.slice(0, -1); // never split a surrogate pair
  return omittedLines(
    number - 1,
    number,
    `${count(length)} characters, too long to analyse; it starts ${JSON.stringify(head)}`,
  );
}

/**
 * Whether some stretch between LFs is over MAX_LINE_CHARS (lines split at CR
 * too are no longer): a memchr-speed check; false means shortenLongLines
 * would return null.
 */
export function hasLongSegment(text: string): boolean {
  if (text.length <= MAX_LINE_CHARS) return false;
  let from = 0;
  for (let lf = text.indexOf('\n'); lf !== -1; lf = text.indexOf('\n', from)) {
    if (lf - from > MAX_LINE_CHARS) return true;
    from = lf + 1;
  }
  return text.length - from > MAX_LINE_CHARS;
}

/**
 * The text with every line over MAX_LINE_CHARS replaced by its marker (line
 * breaks as in the line table: LF, CRLF, lone CR), or null when no line is
 * that long.
 */
export function shortenLongLines(text: string): { text: string; lines: number; marked: Set<number> } | null {
  if (!hasLongSegment(text)) return null;
  const parts: string[] = [];
  let shortened = 0;
  let from = 0;
  let kept = 0;
  const marked = new Set<number>();
  for (let number = 1; from < text.length; number++) {
    const { end, next } = lineEndAt(text, from);
    if (end - from > MAX_LINE_CHARS) {
      parts.push(
        text.slice(kept, from),
        marker(number, text.slice(from, from + PREVIEW_CHARS + 1), end - from),
        text.slice(end, next),
      );
      kept = next;
      shortened++;
      marked.add(number - 1);
    }
    from = next;
  }
  if (shortened === 0) return null;
  parts.push(text.slice(kept));
  return { text: parts.join(''), lines: shortened, marked };
}
