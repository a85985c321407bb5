// squeeze's line syntax (docs/MARKERS.md): what the writers produce, the
// recogniser reads back with the same 1-based numbers retrieval takes.
import { describe, expect, it } from 'vitest';
import {
  charsCut,
  collapsedLines,
  isSqueezeLine,
  jsonItems,
  lineList,
  lineSpan,
  note,
  omissionsOf,
  omittedLineList,
  omittedLines,
  parseSqueezeLine,
  renumbered,
} from '../../src/processors/markers.js';
import { backendName } from '../support/backend.js';

describe(`squeeze's line syntax (${backendName})`, () => {
  it('names 0-based half-open ranges as 1-based inclusive lines, one way everywhere', () => {
    expect(lineSpan(119, 480)).toBe('lines 120–480 (361)');
    expect(lineSpan(11, 12)).toBe('line 12');
    expect(omittedLines(119, 480, { INFO: 300, other: 61 })).toBe('[… lines 120–480 (361): 300 INFO, 61 other …]');
    expect(omittedLines(1199, 1204)).toBe('[… lines 1,200–1,204 (5) omitted …]');
    expect(lineList([4, 8, 9, 10, 51])).toBe('lines 5, 9–11, 52 (5)');
    expect(collapsedLines(4, 41, 'retrying')).toBe('[×37 lines 5–41] retrying');
  });

  it('reads back every span it writes', () => {
    expect(parseSqueezeLine(omittedLines(119, 480, 'context'))).toMatchObject({
      type: 'omission',
      spans: [{ start: 120, count: 361 }],
      count: 361,
    });
    expect(parseSqueezeLine(omittedLines(11, 12, '70,002 characters, too long'))).toMatchObject({
      type: 'omission',
      spans: [{ start: 12, count: 1 }],
    });
    expect(parseSqueezeLine(omittedLineList([4, 8, 9, 10, 51], '5 entries in src/: 5 .ts'))).toMatchObject({
      type: 'omission',
      count: 5,
      spans: [
        { start: 5, count: 1 },
        { start: 9, count: 3 },
        { start: 52, count: 1 },
      ],
    });
    expect(parseSqueezeLine(collapsedLines(4, 41, 'retrying'))).toMatchObject({
      type: 'collapse',
      start: 5,
      count: 37,
      line: 'retrying',
    });
    expect(omissionsOf(['a', omittedLines(1, 3), collapsedLines(3, 5, 'x'), 'b'].join('\n'))).toEqual([
      { start: 2, count: 2 },
      { start: 4, count: 2, collapsed: true },
    ]);
  });

  it('tells notes, cut lines and previews from omissions, and original lines from all of them', () => {
    expect(parseSqueezeLine(note('stats of 12 commits: 40 files changed'))?.type).toBe('note');
    expect(parseSqueezeLine(jsonItems('$.advisories', 3, 483, 'item', { high: 2 }))?.type).toBe('note');
    expect(jsonItems('$.advisories', 3, 483, 'item', { high: 2 })).toBe(
      '[… $.advisories[3–482] (480 items): 2 high …]',
    );
    expect(parseSqueezeLine('[×120 of this shape in lines 14–880; varying: 3 values] GET /a 200')?.type).toBe('note');
    expect(parseSqueezeLine(`src/a.js:1:${'x'.repeat(10)}${charsCut(1204)}`)).toMatchObject({
      type: 'cut',
      parts: ['src/a.js:1:xxxxxxxxxx', ''],
    });
    expect(parseSqueezeLine('[terminal:exit 1 | 600 lines | npm test]')?.type).toBe('note');
    for (const line of [
      'src/app.ts:12: const x = [1, 2];',
      '[INFO] build ok',
      '[… not closed',
      '',
      '  at f (a.js:1:2)',
      '[x] done',
    ]) {
      expect(isSqueezeLine(line), line).toBe(false);
    }
    // A count that disagrees with the range is no marker of squeeze's.
    expect(parseSqueezeLine('[… lines 5–9 (7): made up …]')?.type).toBe('note');
    expect(parseSqueezeLine('[×3 lines 5–9] made up')?.type).toBe('note');
  });

  it('renumbers spans from a text with references back to the original lines', () => {
    // Line 1 (0-based) of the seen text stands for original lines 1–12 (a reference); the rest move by 11.
    const starts = Int32Array.from([0, 1, 13, 14, 15, 16]);
    const seen = [
      'head',
      omittedLines(1, 2, 'repeated verbatim from an earlier tool result'),
      omittedLines(2, 4, 'repeat line 1'),
      collapsedLines(4, 5, 'x'),
    ].join('\n');
    expect(renumbered(seen, starts).split('\n')).toEqual([
      'head',
      '[… lines 2–13 (12): repeated verbatim from an earlier tool result …]',
      '[… lines 14–15 (2): repeat line 1 …]',
      '[×1 line 16] x',
    ]);
  });

  it('recognises every line squeeze emits after or around a result: notice, verdict, level note, full-output note, JSON header, page line', async () => {
    const { retrievalNotice } = await import('../../src/store/notice.js');
    const { levelNote } = await import('../../src/adapters/dsh/listener.js');
    const { pageLine } = await import('../../src/adapters/dsh/retrieve.js');
    const { compress } = await import('../../src/pipeline/index.js');
    const id = 'a3f9c2e81b7d4065f2c9e8d1';
    const notice = retrievalNotice(
      id,
      'terminal',
      52311,
      { locator: '/tmp/s/bash.txt', hint: 'Use read' },
      { tool: 'ccr_retrieve', cli: {} },
      'verdict: 2 of 600 tests failed',
      true,
    );
    expect(notice.split('\n').map((line) => parseSqueezeLine(line))).toMatchObject([
      { type: 'notice', role: 'marker' },
      { type: 'notice', role: 'retrieval' },
      { type: 'notice', role: 'spill' },
      { type: 'notice', role: 'verdict' },
      { type: 'notice', role: 'terminal-codes' },
    ]);
    const level = levelNote({ level: 'light', levelNotKept: { requested: 'lossless', reason: 'over-max-tokens' } })!;
    expect(parseSqueezeLine(level)).toMatchObject({ type: 'notice', role: 'level' });
    for (const line of [
      '[full output: 82,186 bytes, 1,500 lines; the harness had kept the last 64,000 bytes, from line 321]',
      "[full stderr not used: /tmp/x does not end with the output the harness kept; compressing the harness's tail]",
    ]) {
      expect(parseSqueezeLine(line), line).toMatchObject({ type: 'notice', role: 'full-output' });
    }
    const json = JSON.stringify({
      items: Array.from({ length: 300 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ['a', 'b'] })),
    });
    const header = compress(json, { backend: backendName, minTokens: 1, level: 'aggressive' }).output.split('\n')[0]!;
    expect(header.startsWith('[json ')).toBe(true);
    expect(parseSqueezeLine(header)?.type).toBe('note');
    const page = pageLine({ lines: { start: 1, count: 812 }, totalLines: 4001, next: { start: 813, count: 3189 } })!;
    expect(parseSqueezeLine(page)?.type, page).toBe('note');
    // Original lines that merely open the same way are not squeeze's.
    for (const line of ['[original: mine]x', '<<<CCR:abc|log|1>>>', '[json', '[verdict: pending', '[squeeze: a'])
      expect(isSqueezeLine(line), line).toBe(false);
  });

  it('given the original, omissionsOf reads a shown original line that looks like a marker as shown, not as an omission', async () => {
    const { compress } = await import('../../src/pipeline/index.js');
    const log = (n: number, word: string) =>
      Array.from(
        { length: n },
        (_, i) => `2026-12-01T10:00:${String(i % 60).padStart(2, '0')}Z ${word} worker-${i % 7} job ${i}`,
      );
    // A squeeze output pasted into a log, then 400 INFO lines.
    const inner = compress(`${[...log(300, 'INFO'), 'ERROR disk full', ...log(100, 'INFO')].join('\n')}\n`, {
      backend: backendName,
      minTokens: 1,
      retainOriginal: false,
    }).output;
    const innerLines = inner.trimEnd().split('\n');
    expect(innerLines.some(isSqueezeLine)).toBe(true);
    const original = `${[...innerLines, ...log(400, 'INFO')].join('\n')}\n`;
    const result = compress(original, { backend: backendName, minTokens: 1, retainOriginal: false, level: 'light' });
    expect(result.omissions).toEqual(omissionsOf(result.output, original));
    const lines = original.trimEnd().split('\n');
    const outLines = result.output.trimEnd().split('\n');
    // Every span is named by a marker that is not the original's line at its place: none comes from the pasted output.
    const shownInner = innerLines.filter((line) => isSqueezeLine(line) && outLines.includes(line));
    expect(shownInner.length).toBeGreaterThan(0);
    const spansOfInner = omissionsOf(shownInner.join('\n'));
    for (const span of spansOfInner) expect(result.omissions, JSON.stringify(span)).not.toContainEqual(span);
    // Shown lines and omitted lines add up to the original's.
    const omitted = result.omissions.reduce((sum, span) => sum + span.count - (span.collapsed ? 1 : 0), 0);
    const shown = outLines.filter(
      (line) => lines.includes(line) && !(isSqueezeLine(line) && !innerLines.includes(line)),
    ).length;
    expect(omitted + shown).toBe(lines.length);
  });
});
