// The model's view as lines the page can render: each omission or collapse
// marker tied to the span of the original it names, so a click can scroll the
// original there. The spans come from result.omissions, in marker order; a
// line that only looks like a marker (an original line of a log of squeeze's
// own output) is matched against them and stays plain text when it is not one.
import { type Omission, parseSqueezeLine } from '../processors/markers.js';

export interface ViewLine {
  readonly text: string;
  /** squeeze's own line: a marker standing for original lines, a note, or the retrieval notice under the result. */
  readonly role?: 'marker' | 'note' | 'notice';
  /** For a marker: the first original span it names (1-based start). */
  readonly span?: Omission;
}

const sameSpan = (a: Omission | undefined, start: number, count: number) =>
  a !== undefined && a.start === start && a.count === count;

export function viewLines(output: string, omissions: readonly Omission[]): ViewLine[] {
  const lines = output.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  let next = 0;
  return lines.map((text): ViewLine => {
    const parsed = parseSqueezeLine(text.endsWith('\r') ? text.slice(0, -1) : text);
    if (parsed?.type === 'omission' && parsed.spans.every((s, i) => sameSpan(omissions[next + i], s.start, s.count))) {
      const span = omissions[next]!;
      next += parsed.spans.length;
      return { text, role: 'marker', span };
    }
    if (parsed?.type === 'collapse' && sameSpan(omissions[next], parsed.start, parsed.count)) {
      return { text, role: 'marker', span: omissions[next++]! };
    }
    if (parsed?.type === 'note' || parsed?.type === 'notice') return { text, role: parsed.type };
    return { text };
  });
}
