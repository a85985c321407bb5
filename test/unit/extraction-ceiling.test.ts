// A JSON report whose records holding preserved ids are each longer than the
// ceiling keeps its structure over it: the extraction's lines are cut, a long
// line holding an id to its ids (the rest counted as characters cut), instead
// of the whole result giving way to the emergency form.
import { describe, expect, it } from 'vitest';
import { compress } from '../../src/pipeline/index.js';
import { backendName } from '../support/backend.js';

/** n words of a record's text, different per record. */
function words(k: number, n: number): string {
  return Array.from({ length: n }, (_, i) => `word${(k * 31 + i * 7) % 97}`).join(' ');
}

const VULNERABLE = [7, 17, 27, 37];
const id = (k: number) => `CVE-2024-${10_000 + k}`;
const report = JSON.stringify(
  {
    reportSchema: '1.1',
    dependencies: Array.from({ length: 40 }, (_, k) => ({
      fileName: `lib-${k}.jar`,
      description: words(k, 60),
      vulnerabilities: VULNERABLE.includes(k)
        ? [{ name: id(k), severity: 'HIGH', references: [{ name: `${words(k, 400)} ${id(k)} ${words(k + 1, 400)}` }] }]
        : [],
    })),
  },
  null,
  2,
);

describe(`an extraction over the ceiling (${backendName})`, () => {
  it.each([2000, 1000])('a report of long vulnerable records keeps them by name at maxTokens %i', (maxTokens) => {
    const result = compress(report, {
      backend: backendName,
      toolName: 'bash',
      command: 'dependency-check --format JSON',
      maxTokens,
      targetTokens: maxTokens,
    });
    expect(result.kind).toBe('json');
    expect(result.level).not.toBe('emergency');
    expect(result.tokensOut).toBeLessThanOrEqual(maxTokens);
    for (const k of VULNERABLE) {
      expect(result.output).toContain(id(k));
      expect(result.output).toContain(`fileName:lib-${k}.jar`);
    }
    expect(result.output).toMatch(/\[… [\d,]+ chars cut …\]/);
  });
});
