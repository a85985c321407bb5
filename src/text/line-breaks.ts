// The one line-break rule squeeze's hosts and kernels share: a line ends at
// LF, CRLF or a lone CR, and a final break does not start a new line. The
// kernels' line table (src/engine) implements it for speed; text code that
// slices lines by hand (retrieval ranges, long-line markers) uses this, so
// the line numbers they print are the ones omission markers name. A leaf
// module: it imports nothing.

const BREAK = /\r\n?|\n/g;

/** Where the line that starts at `from` ends (`end`, its break or the text's end) and the next one starts (`next`). */
export function lineEndAt(text: string, from: number): { end: number; next: number } {
  BREAK.lastIndex = from;
  const found = BREAK.exec(text);
  return found === null
    ? { end: text.length, next: text.length }
    : { end: found.index, next: found.index + found[0].length };
}
