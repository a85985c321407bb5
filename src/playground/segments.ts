// The original cut into the runs the page shades: lines the model sees, and
// the spans a result's omissions name (result.omissions, read back from the
// output's own markers), each span its own segment so its label carries the
// exact line range the marker in the model's view names.
import { lineSpan, type Omission } from '../processors/markers.js';
import { lineEndAt } from '../text/line-breaks.js';

export interface Segment {
  /** 'omitted': the model does not see these lines; 'collapsed': identical lines it sees once. */
  readonly kind: 'shown' | 'omitted' | 'collapsed';
  /** 1-based first line, as the markers number them. */
  readonly start: number;
  readonly count: number;
  /** The original text of these lines, with their line breaks. */
  readonly text: string;
}

/** Offsets where each line of `text` starts, and its length at the end (the line-break rule squeeze numbers by). */
export function lineStarts(text: string): number[] {
  const starts: number[] = [];
  for (let from = 0; from < text.length; ) {
    starts.push(from);
    from = lineEndAt(text, from).next;
  }
  starts.push(text.length);
  return starts;
}

/**
 * The original's lines in order, as shown runs and one segment per omission
 * span (a list marker's several spans each make one). Spans past the text or
 * overlapping an earlier one are left out rather than shaded twice.
 */
export function segments(text: string, omissions: readonly Omission[]): Segment[] {
  const starts = lineStarts(text);
  const lines = starts.length - 1;
  const slice = (start: number, count: number) => text.slice(starts[start - 1], starts[start - 1 + count]);
  const spans = [...omissions].sort((a, b) => a.start - b.start);
  const out: Segment[] = [];
  let next = 1;
  const shown = (until: number) => {
    if (until > next) out.push({ kind: 'shown', start: next, count: until - next, text: slice(next, until - next) });
  };
  for (const span of spans) {
    if (span.start < next || span.count < 1 || span.start + span.count - 1 > lines) continue;
    shown(span.start);
    const kind = span.collapsed ? 'collapsed' : 'omitted';
    out.push({ kind, start: span.start, count: span.count, text: slice(span.start, span.count) });
    next = span.start + span.count;
  }
  shown(lines + 1);
  return out;
}

/** `lines 120–480 (361)` or `line 12`: the range a segment's label names, in the markers' own words. */
export function rangeLabel(span: { readonly start: number; readonly count: number }): string {
  return lineSpan(span.start - 1, span.start - 1 + span.count);
}
