// The caps past which a processor takes a cheaper path (bounded work on
// hostile input): HTML nested past MAX_NESTING_DEPTH goes the text way, JSON
// past MAX_JSON_VALUES values is summarised by one streaming pass.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutChars } from '../../src/text/strings.js';
import { ProcessorError } from '../../src/processors/errors.js';
import { MAX_NESTING_DEPTH, nestsDeeperThan } from '../../src/processors/html/extract.js';
import { htmlProcessor } from '../../src/processors/html/index.js';
import { countValues, MAX_JSON_VALUES, summariseHugeJson } from '../../src/processors/json/huge.js';
import { jsonProcessor } from '../../src/processors/json/index.js';
import type { Processor, ProcessorInput } from '../../src/types.js';
import { backendName } from '../support/backend.js';
import { charEstimator, runProcessor } from '../support/processor-run.js';

const estimator = charEstimator;
const run = (processor: Processor, text: string, level: ProcessorInput['level'] = 'light', budget = 4000) =>
  runProcessor(processor, text, { level, budget });

const nested = (depth: number, inner = 'deep') =>
  `<html><body>${'<div>'.repeat(depth)}${inner}${'</div>'.repeat(depth)}</body></html>`;

describe(`HTML nesting cap (${backendName})`, () => {
  it('measures nesting: void, self-closed and raw-text bodies do not nest', () => {
    expect(nestsDeeperThan(nested(MAX_NESTING_DEPTH - 2), MAX_NESTING_DEPTH)).toBe(false);
    expect(nestsDeeperThan(nested(MAX_NESTING_DEPTH + 1), MAX_NESTING_DEPTH)).toBe(true);
    const flat = `<html><body>${'<p>x<br><img src=a><span/></p>'.repeat(5000)}<script>${'<div>'.repeat(1000)}</script></body></html>`;
    expect(nestsDeeperThan(flat, MAX_NESTING_DEPTH)).toBe(false);
    expect(nestsDeeperThan(`<a${'<a'.repeat(100_000)}`, MAX_NESTING_DEPTH)).toBe(false); // no tag ever closes with '>'
  });

  it('refuses a page nested past the cap, so the pipeline compresses it as text', () => {
    expect(() => run(htmlProcessor, nested(MAX_NESTING_DEPTH + 10))).toThrow(ProcessorError);
    expect(() => run(htmlProcessor, nested(MAX_NESTING_DEPTH + 10))).toThrow(/nested deeper than 512 elements/);
    const ok = run(htmlProcessor, nested(100, '<p>a paragraph of readable text that is the page</p>'.repeat(50)));
    expect(ok.text).toContain('a paragraph of readable text');
  });
});

describe(`JSON value cap (${backendName})`, () => {
  const object = (keys: number) => `{${Array.from({ length: keys }, (_, i) => `"key${i}": ${i}`).join(', ')}}`;

  it('counts values outside strings and stops past the limit', () => {
    expect(countValues('{"a,b:[{": [1, 2, {"c": 3}]}', 100)).toBe(7);
    expect(countValues(object(1000), 10)).toBe(11);
  });

  it('summarises a huge object: exact count, first and last entries as written, the gap named', () => {
    const keys = MAX_JSON_VALUES + 5;
    const text = object(keys);
    const out = run(jsonProcessor, text);
    const lines = out.text.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^\\[json object with ${keys.toLocaleString('en-US')} keys, `));
    expect(lines[1]).toBe('{');
    expect(lines[2]).toBe('"key0": 0,');
    expect(lines.at(-1)).toBe('}');
    expect(lines.at(-2)).toBe(`"key${keys - 1}": ${keys - 1}`);
    // The gap names the entries by position, 0-based as JSON indexes: `[… $[40–1959] (1,920 keys) omitted …]`.
    const gap = lines.find((l) => l.startsWith('[… $['))!;
    const [, first, last, n] = /^\[… \$\[(\d+)–(\d+)\] \(([\d,]+) keys\) omitted …\]$/
      .exec(gap)!
      .map((v) => Number(v.replace(/,/g, '')));
    const shown = lines.filter((l) => l.startsWith('"key')).length;
    expect(n).toBe(keys - shown);
    expect(last! - first! + 1).toBe(n);
    expect(first).toBe(lines.filter((l, i) => i < lines.indexOf(gap) && l.startsWith('"key')).length);
    expect(out.omitted).toEqual({ keys: n });
    expect(estimator.estimate(out.text)).toBeLessThan(4000 * 1.2);
  });

  it('cuts a huge entry and counts what it cut', () => {
    const text = `[${JSON.stringify('x'.repeat(10_000))}, 1, 2]`;
    const out = summariseHugeJson(text, 3000);
    expect(out.text).toContain(`"${'x'.repeat(399)} [… 9,602 more characters …]`);
    expect(out.text.split('\n')[0]).toMatch(/^\[json array with 3 items/);
  });

  it('leaves JSON lines and truncated documents to the other processors', () => {
    expect(() => summariseHugeJson('{"a": 1}\n{"b": 2}\n', 3000)).toThrow(/text follows/);
    expect(() => summariseHugeJson('{"a": [1, 2', 3000)).toThrow(/ends before/);
  });
});

describe('previews of huge lines', () => {
  it('cut by code points exactly as a whole-text split would, looking only at the head', () => {
    const reference = (text: string, max: number) => {
      const units = Array.from(text);
      return units.length <= max ? text : `${units.slice(0, Math.max(0, max - 1)).join('')}…`;
    };
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', 'é', '😀', '\ud800', '\udc00', ' '), maxLength: 60 }),
        fc.integer({ min: 0, max: 30 }),
        (text, max) => {
          expect(cutChars(text, max)).toBe(reference(text, max));
        },
      ),
      { numRuns: 2000 },
    );
    expect(cutChars('😀'.repeat(5_000_000), 240)).toBe(`${'😀'.repeat(239)}…`);
  });
});
