// Log window selection: budget, head/tail, evidence windows, exact omitted counts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EVIDENCE_FLAGS, LineFlag, SEVERITY_COUNT, Severity, TextAnalysis } from '../../src/engine/index.js';
import type { WindowPlan, WindowRequest } from '../../src/engine/index.js';
import { backendName, testBackend } from '../support/backend.js';

interface Span {
  start: number;
  end: number;
  kept: boolean;
  omitted: number[];
}

function spansOf(plan: WindowPlan): Span[] {
  const spans: Span[] = [];
  for (let k = 0; k * 3 < plan.spans.length; k++) {
    spans.push({
      start: plan.spans[3 * k]!,
      end: plan.spans[3 * k + 1]!,
      kept: plan.spans[3 * k + 2] === 1,
      omitted: Array.from(plan.omittedBySeverity.subarray(k * SEVERITY_COUNT, (k + 1) * SEVERITY_COUNT)),
    });
  }
  return spans;
}

function request(count: number, overrides: Partial<WindowRequest> = {}): WindowRequest {
  return {
    count,
    priority: new Int32Array(count),
    cost: new Int32Array(count).fill(1),
    levels: new Int32Array(count),
    budget: 1000,
    head: 0,
    tail: 0,
    before: 0,
    after: 0,
    ...overrides,
  };
}

function plan(req: WindowRequest): Span[] {
  return spansOf(testBackend().planWindows(req));
}

function keptLines(spans: Span[]): number[] {
  return spans.filter((s) => s.kept).flatMap((s) => Array.from({ length: s.end - s.start }, (_, i) => s.start + i));
}

/** Every invariant a plan must satisfy, checked against the request independently. */
function checkInvariants(req: WindowRequest, result: WindowPlan): void {
  const spans = spansOf(result);
  let at = 0;
  let kept = 0;
  let tokens = 0;
  for (const [k, span] of spans.entries()) {
    expect(span.start).toBe(at);
    expect(span.end).toBeGreaterThan(span.start);
    if (k > 0) expect(span.kept).not.toBe(spans[k - 1]!.kept);
    const expected = new Array<number>(SEVERITY_COUNT).fill(0);
    for (let i = span.start; i < span.end; i++) {
      if (span.kept) {
        kept++;
        tokens += Math.max(req.cost[i]!, 0);
      } else {
        expected[Math.min(req.levels[i]! & 7, 6)]!++;
      }
    }
    expect(span.omitted).toEqual(expected);
    at = span.end;
  }
  expect(at).toBe(req.count);
  expect(result.keptLines).toBe(kept);
  expect(result.keptTokens).toBe(tokens);
  expect(result.keptTokens).toBeLessThanOrEqual(Math.max(req.budget, 0));
  const omitted = spans.reduce((sum, s) => sum + s.omitted.reduce((a, b) => a + b, 0), 0);
  expect(omitted + kept).toBe(req.count);
}

describe(`log window selection (${backendName})`, () => {
  it('keeps only head and tail when no line is evidence', () => {
    expect(plan(request(10, { head: 2, tail: 2 }))).toEqual([
      { start: 0, end: 2, kept: true, omitted: [0, 0, 0, 0, 0, 0, 0] },
      { start: 2, end: 8, kept: false, omitted: [6, 0, 0, 0, 0, 0, 0] },
      { start: 8, end: 10, kept: true, omitted: [0, 0, 0, 0, 0, 0, 0] },
    ]);
  });

  it('keeps every line when head and tail overlap', () => {
    expect(plan(request(5, { head: 4, tail: 4 }))).toEqual([
      { start: 0, end: 5, kept: true, omitted: [0, 0, 0, 0, 0, 0, 0] },
    ]);
  });

  it('keeps head and tail and counts omitted lines by severity', () => {
    const levels = Int32Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? Severity.Info : Severity.Debug));
    levels[10] = Severity.Warn;
    const req = request(20, { head: 3, tail: 2, levels });
    const spans = plan(req);
    expect(keptLines(spans)).toEqual([0, 1, 2, 18, 19]);
    expect(spans[1]).toEqual({ start: 3, end: 18, kept: false, omitted: [0, 0, 8, 6, 1, 0, 0] });
    checkInvariants(req, testBackend().planWindows(req));
  });

  it('shrinks head and tail alternately when the budget is tiny', () => {
    const spans = plan(request(20, { head: 5, tail: 5, budget: 3 }));
    expect(keptLines(spans)).toEqual([0, 1, 19]);
    expect(plan(request(20, { head: 5, tail: 5, budget: 0 }))).toEqual([
      { start: 0, end: 20, kept: false, omitted: [20, 0, 0, 0, 0, 0, 0] },
    ]);
  });

  it('opens windows around evidence and merges overlapping and adjacent ones', () => {
    const priority = new Int32Array(40);
    priority[10] = 1;
    priority[14] = 1; // overlaps 10's window
    priority[19] = 1; // its window 17..21 touches 14's 12..16
    priority[33] = 1;
    const spans = plan(request(40, { priority, before: 2, after: 2 }));
    expect(spans.filter((s) => s.kept).map((s) => [s.start, s.end])).toEqual([
      [8, 22],
      [31, 36],
    ]);
  });

  it('serves higher priority first, then earlier lines', () => {
    const priority = new Int32Array(30);
    priority[5] = 1;
    priority[15] = 3;
    priority[25] = 3;
    const spans = plan(request(30, { priority, before: 1, after: 1, budget: 3 }));
    expect(keptLines(spans)).toEqual([14, 15, 16]);
    const more = plan(request(30, { priority, before: 1, after: 1, budget: 6 }));
    expect(keptLines(more)).toEqual([14, 15, 16, 24, 25, 26]);
  });

  it('keeps an evidence line alone when its window does not fit', () => {
    const priority = new Int32Array(30);
    priority[15] = 2;
    priority[3] = 1;
    const cost = new Int32Array(30).fill(5);
    cost[15] = 2;
    cost[3] = 1;
    const spans = plan(request(30, { priority, cost, before: 3, after: 3, budget: 4 }));
    expect(keptLines(spans)).toEqual([3, 15]);
  });

  it('treats negative costs and limits as zero and rejects short arrays', () => {
    const req = request(6, { cost: Int32Array.from([-5, 1, 1, 1, 1, 1]), head: -1, tail: -3, budget: -10 });
    const result = testBackend().planWindows(req);
    expect(result.keptTokens).toBe(0);
    checkInvariants(req, result);
    expect(() => testBackend().planWindows({ ...request(6), priority: new Int32Array(2) })).toThrow(RangeError);
    expect(testBackend().planWindows(request(0)).spans.length).toBe(0);
  });

  it('satisfies every invariant on random requests', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 300 }).chain((count) =>
          fc.record({
            count: fc.constant(count),
            priority: fc.array(fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: -2, max: 5 })), {
              minLength: count,
              maxLength: count,
            }),
            cost: fc.array(fc.integer({ min: -3, max: 40 }), { minLength: count, maxLength: count }),
            levels: fc.array(fc.integer({ min: 0, max: 15 }), { minLength: count, maxLength: count }),
            budget: fc.integer({ min: -5, max: 3000 }),
            head: fc.integer({ min: -2, max: 40 }),
            tail: fc.integer({ min: -2, max: 40 }),
            before: fc.integer({ min: -2, max: 8 }),
            after: fc.integer({ min: -2, max: 8 }),
          }),
        ),
        (r) => {
          const req: WindowRequest = {
            ...r,
            priority: Int32Array.from(r.priority),
            cost: Int32Array.from(r.cost),
            levels: Int32Array.from(r.levels),
          };
          checkInvariants(req, testBackend().planWindows(req));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps the evidence of a real-shaped build log under a budget', () => {
    const log = [
      ...Array.from({ length: 60 }, (_, i) => `[INFO] Compiling module ${i} of 60`),
      '[ERROR] /src/main/java/App.java:[12,5] cannot find symbol',
      ...Array.from({ length: 60 }, (_, i) => `[INFO] Processing resource ${i}`),
      '[INFO] BUILD FAILURE',
    ].join('\n');
    const a = new TextAnalysis(log, testBackend());
    const flags = a.classes.flags;
    const count = a.lines.count;
    const priority = Int32Array.from(flags, (f) =>
      (f & EVIDENCE_FLAGS) !== 0 ? 1 + ((f & LineFlag.Diagnostic) !== 0 ? 1 : 0) : 0,
    );
    const cost = Int32Array.from({ length: count }, (_, i) => Math.ceil((a.lines.end[i]! - a.lines.start[i]!) / 4));
    const req: WindowRequest = {
      count,
      priority,
      cost,
      levels: flags,
      budget: 120,
      head: 3,
      tail: 3,
      before: 2,
      after: 2,
    };
    const result = testBackend().planWindows(req);
    checkInvariants(req, result);
    const kept = keptLines(spansOf(result)).map((i) => a.line(i));
    expect(kept).toContain('[ERROR] /src/main/java/App.java:[12,5] cannot find symbol');
    expect(kept).toContain('[INFO] BUILD FAILURE');
    expect(kept[0]).toBe('[INFO] Compiling module 0 of 60');
    const omittedInfo = spansOf(result).reduce((n, s) => n + s.omitted[Severity.Info]!, 0);
    expect(omittedInfo).toBe(count - kept.length);
  });
});
