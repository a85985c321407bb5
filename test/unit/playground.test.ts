// The playground's reading of a result (src/playground/segments.ts, view.ts):
// the original cut by the omissions every sample's result names, and the
// model's view with each marker tied to the span it names.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { demoSample } from '../../src/demo/sample.js';
import { createSqueeze, DEFAULTS } from '../../src/pipeline/index.js';
import { lineSpan, parseSqueezeLine } from '../../src/processors/markers.js';
import { segments } from '../../src/playground/segments.js';
import { viewLines } from '../../src/playground/view.js';
import { createStore } from '../../src/store/store.js';
import { lineCount } from '../../src/text/strings.js';
import { backendName } from '../support/backend.js';

const listed = JSON.parse(readFileSync(new URL('../../src/playground/samples.json', import.meta.url), 'utf8')) as {
  label: string;
  file: string;
  command: string;
}[];
const samples: [string, string, string][] = [
  ['the demo CI run', demoSample(), ''],
  ...listed.map((s): [string, string, string] => [s.label, readFileSync(s.file, 'utf8'), s.command]),
];
const squeeze = createSqueeze({ store: createStore(), backend: backendName, recentResults: 0 });
/** Under a ceiling tight enough that every sample cuts lines (the budgets under it lowered to fit). */
const compressed = (text: string, command: string, maxTokens = 600) =>
  squeeze.compress(text, {
    ...(command ? { toolName: 'bash', command } : {}),
    maxTokens,
    targetTokens: Math.min(DEFAULTS.targetTokens, maxTokens),
    minTokens: Math.min(DEFAULTS.minTokens, maxTokens),
  });

describe(`playground segments and view (${backendName})`, () => {
  it.each(samples)(
    'cuts %s into shown runs and one segment per omission, in order, losing nothing',
    (_, text, command) => {
      const result = compressed(text, command);
      const parts = segments(text, result.omissions);
      expect(parts.map((p) => p.text).join('')).toBe(text);
      let next = 1;
      for (const part of parts) {
        expect(part.start).toBe(next);
        expect(lineCount(part.text)).toBe(part.count);
        next += part.count;
      }
      const cut = parts.filter((p) => p.kind !== 'shown');
      const spans = [...result.omissions].sort((a, b) => a.start - b.start);
      expect(cut.map((p) => [p.start, p.count, p.kind === 'collapsed'])).toEqual(
        spans.map((s) => [s.start, s.count, s.collapsed === true]),
      );
    },
  );

  it.each(samples)('ties every marker of the view of %s to the span it names', (_, text, command) => {
    const result = compressed(text, command);
    const lines = viewLines(result.output, result.omissions);
    expect(`${lines.map((l) => l.text).join('\n')}\n`).toBe(result.output);
    const markers = lines.filter((l) => l.role === 'marker');
    if (result.omissions.length > 0) expect(markers.length).toBeGreaterThan(0);
    for (const marker of markers) {
      const parsed = parseSqueezeLine(marker.text);
      const first = parsed?.type === 'omission' ? parsed.spans[0] : parsed?.type === 'collapse' ? parsed : null;
      expect(first && [first.start, first.count]).toEqual([marker.span!.start, marker.span!.count]);
      expect(result.omissions).toContainEqual(marker.span);
    }
    // The retrieval notice under a stored result is squeeze's too, not original text.
    const notice = lines.find((l) => l.role === 'notice' && result.id !== null && l.text.includes(result.id));
    expect(notice !== undefined).toBe(result.id !== null);
  });

  it('leaves an original line that only looks like a marker as text', () => {
    const lookalike = `[… ${lineSpan(0, 2)} …]`;
    expect(viewLines(`${lookalike}\nnext\n`, [])).toEqual([{ text: lookalike }, { text: 'next' }]);
  });

  it('shades no span past the end of the text, nor one overlapping an earlier span', () => {
    const parts = segments('a\nb\nc\n', [
      { start: 2, count: 2 },
      { start: 3, count: 1 },
      { start: 4, count: 1 },
    ]);
    expect(parts.map((p) => [p.kind, p.start, p.count])).toEqual([
      ['shown', 1, 1],
      ['omitted', 2, 2],
    ]);
  });
});
