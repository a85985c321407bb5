import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RecentBlocks, TextAnalysis } from '../../src/engine/index.js';
import type { BlockSpans } from '../../src/engine/index.js';
import { backendName, testBackend } from '../support/backend.js';

function analyse(text: string): TextAnalysis {
  return new TextAnalysis(text, testBackend());
}

function spans(blocks: BlockSpans): [number, number, number][] {
  return Array.from({ length: blocks.count }, (_, i) => [blocks.start[i]!, blocks.lines[i]!, blocks.source[i]!]);
}

const TRACE = [
  'java.lang.IllegalStateException: Connection pool shut down',
  '\tat org.apache.http.util.Asserts.check(Asserts.java:34)',
  '\tat org.apache.http.impl.conn.PoolingHttpClientConnectionManager.requestConnection(PoolingHttpClientConnectionManager.java:269)',
  '\tat org.apache.http.impl.execchain.MainClientExec.execute(MainClientExec.java:176)',
  '\tat org.apache.http.impl.execchain.ProtocolExec.execute(ProtocolExec.java:185)',
  '\tat org.apache.http.impl.execchain.RetryExec.execute(RetryExec.java:89)',
  '\tat org.apache.http.impl.execchain.RedirectExec.execute(RedirectExec.java:110)',
  '\tat org.apache.http.impl.client.InternalHttpClient.doExecute(InternalHttpClient.java:185)',
  '\tat org.apache.http.impl.client.CloseableHttpClient.execute(CloseableHttpClient.java:83)',
  '\tat com.example.sync.Uploader.push(Uploader.java:57)',
  '\tat com.example.sync.Worker.run(Worker.java:112)',
  '\tat java.base/java.lang.Thread.run(Thread.java:829)',
];

describe(`repeated blocks in one text (${backendName})`, () => {
  it('reports a 12-line stack trace repeated 40 times as 39 blocks pointing at the first', () => {
    const a = analyse(`${Array.from({ length: 40 }, () => TRACE.join('\n')).join('\n')}\n`);
    expect(spans(a.repeatedBlocks(3))).toEqual(Array.from({ length: 39 }, (_, k) => [12 * (k + 1), 12, 0]));
  });

  it('finds traces under varying log headers: exact lines skip the header, templates include it', () => {
    const text = Array.from({ length: 5 }, (_, k) =>
      [
        `2024-03-0${k + 1} 10:00:0${k},12${k} ERROR [pool-${k + 1}] upload failed`,
        ...TRACE,
        `retrying in ${k + 2}s`,
      ].join('\r\n'),
    ).join('\r\n');
    const a = analyse(text);
    expect(spans(a.repeatedBlocks(3))).toEqual([
      [15, 12, 1],
      [29, 12, 1],
      [43, 12, 1],
      [57, 12, 1],
    ]);
    expect(spans(a.repeatedBlocks(3, 'template'))).toEqual([
      [14, 14, 0],
      [28, 14, 0],
      [42, 14, 0],
      [56, 14, 0],
    ]);
  });

  it('splits ABABAB into copies of the first AB, and finds nothing when the period is below minLines', () => {
    const a = analyse('A\nB\nA\nB\nA\nB');
    expect(spans(a.repeatedBlocks(2))).toEqual([
      [2, 2, 0],
      [4, 2, 0],
    ]);
    expect(spans(a.repeatedBlocks(3))).toEqual([]);
    // single-line windows still extend to the whole earlier copy
    expect(spans(a.repeatedBlocks(1))).toEqual([
      [2, 2, 0],
      [4, 2, 0],
    ]);
  });

  it('finds a block at the very end, with or without a final LF, and across CRLF and LF', () => {
    expect(spans(analyse('x\ny\nA\nB\nC\nz\nA\nB\nC').repeatedBlocks(3))).toEqual([[6, 3, 2]]);
    expect(spans(analyse('A\r\nB\r\nC\r\nz\nA\nB\nC\n').repeatedBlocks(3))).toEqual([[4, 3, 0]]);
    expect(spans(analyse('A\nB\nC\nz\nA\nB').repeatedBlocks(3))).toEqual([]);
  });

  it('treats runs of empty lines as blocks like any other', () => {
    expect(spans(analyse('\n\n\n\n\n\n\n').repeatedBlocks(3))).toEqual([[3, 3, 0]]);
  });

  it('extends a block as far as the lines keep matching, up to where the earlier copy would be covered', () => {
    const a = analyse(['A', 'B', 'C', 'D', 'E', 'x', 'A', 'B', 'C', 'D', 'E', 'y', 'B', 'C', 'D'].join('\n'));
    expect(spans(a.repeatedBlocks(3))).toEqual([
      [6, 5, 0],
      [12, 3, 1],
    ]);
  });

  it('has no blocks for texts shorter than minLines, and rejects a minLines below 1', () => {
    expect(analyse('').repeatedBlocks(3).count).toBe(0);
    expect(analyse('A\nA').repeatedBlocks(3).count).toBe(0);
    const backend = testBackend();
    expect(() => backend.repeatedBlocks(2, new Uint32Array(2), new Uint32Array(2), 0)).toThrow(RangeError);
    expect(() => backend.repeatedBlocks(2, new Uint32Array(2), new Uint32Array(2), 1.5)).toThrow(RangeError);
    expect(() => backend.repeatedBlocks(3, new Uint32Array(2), new Uint32Array(2), 2)).toThrow(RangeError);
  });

  it('always reports sorted, non-overlapping blocks that equal an earlier copy no block covers', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', 'c', ''), { maxLength: 300 }),
        fc.integer({ min: 1, max: 5 }),
        (lines, minLines) => {
          const a = analyse(`${lines.join('\n')}\n`);
          const found = spans(a.repeatedBlocks(minLines));
          const covered = new Set<number>();
          let end = 0;
          for (const [start, count, source] of found) {
            expect(start).toBeGreaterThanOrEqual(end);
            expect(count).toBeGreaterThanOrEqual(minLines);
            expect(source + count).toBeLessThanOrEqual(start);
            expect(lines.slice(start, start + count)).toEqual(lines.slice(source, source + count));
            for (let k = start; k < start + count; k++) covered.add(k);
            end = start + count;
          }
          for (const [, count, source] of found) {
            for (let k = source; k < source + count; k++) expect(covered.has(k)).toBe(false);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe(`window fingerprints (${backendName})`, () => {
  it('depend only on the lines of the window', () => {
    const a = analyse('A\nB\nC\nD');
    const b = analyse('x\nA\nB\nC\nD\n');
    const wa = a.windows(3);
    const wb = b.windows(3);
    expect(wa.hashA.length).toBe(2);
    expect(wb.hashA.length).toBe(3);
    expect(Array.from(wb.hashA.slice(1))).toEqual(Array.from(wa.hashA));
    expect(Array.from(wb.hashB.slice(1))).toEqual(Array.from(wa.hashB));
    expect(wa.hashA[0]).not.toBe(wa.hashA[1]);
    expect(analyse('A\nB').windows(3).hashA.length).toBe(0);
  });
});

describe(`blocks seen in recent results (${backendName})`, () => {
  const build = (tail: string[]) => ['> Task :compileJava', ...TRACE, 'BUILD FAILED in 3s', ...tail].join('\n');

  it('finds a stack trace that appeared in an earlier result, with its result and line', () => {
    const recent = new RecentBlocks({ capacity: 3, blockLines: 4 });
    recent.add(analyse(build([])), 'r1');
    recent.add(analyse('unrelated\noutput\nof\nanother\ntool'), 'r2');
    const now = analyse(['$ gradle build --rerun', 'Starting daemon', ...TRACE, 'done'].join('\n'));
    expect(recent.find(now)).toEqual([{ start: 2, lines: 12, resultId: 'r1', sourceLine: 1 }]);
  });

  it('points at the newest result holding a block, and forgets results beyond capacity', () => {
    const recent = new RecentBlocks({ capacity: 2, blockLines: 4 });
    const now = analyse(TRACE.join('\n'));
    recent.add(analyse(build([])), 'old');
    recent.add(analyse(['x', ...TRACE].join('\n')), 'new');
    expect(recent.find(now)).toEqual([{ start: 0, lines: 12, resultId: 'new', sourceLine: 1 }]);
    recent.add(analyse('a\nb'), 'other1');
    expect(recent.find(now)).toEqual([{ start: 0, lines: 12, resultId: 'new', sourceLine: 1 }]);
    recent.add(analyse('c\nd'), 'other2');
    expect(recent.size).toBe(2);
    expect(recent.find(now)).toEqual([]);
  });

  it('does not join a block across two earlier results', () => {
    const recent = new RecentBlocks({ capacity: 3, blockLines: 3 });
    recent.add(analyse(TRACE.slice(0, 6).join('\n')), 'first-half');
    recent.add(analyse(TRACE.slice(6).join('\n')), 'second-half');
    const found = recent.find(analyse(TRACE.join('\n')));
    expect(found).toEqual([
      { start: 0, lines: 6, resultId: 'first-half', sourceLine: 0 },
      { start: 6, lines: 6, resultId: 'second-half', sourceLine: 0 },
    ]);
  });

  it('finds nothing before anything is remembered, and rejects bad sizes', () => {
    expect(new RecentBlocks().find(analyse(TRACE.join('\n')))).toEqual([]);
    expect(() => new RecentBlocks({ capacity: 0 })).toThrow(RangeError);
    expect(() => new RecentBlocks({ blockLines: 0 })).toThrow(RangeError);
    const backend = testBackend();
    const windows = { hashA: new Uint32Array(2), hashB: new Uint32Array(2) };
    expect(() =>
      backend.seenBlocks(windows, 3, {
        hashA: new Uint32Array(1),
        hashB: new Uint32Array(1),
        owner: new Int32Array(0),
      }),
    ).toThrow(RangeError);
  });
});
