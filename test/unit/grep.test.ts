import { describe, expect, it } from 'vitest';
import { TextAnalysis } from '../../src/engine/index.js';
import { ProcessorError } from '../../src/processors/errors.js';
import { grepProcessor } from '../../src/processors/grep.js';
import type { ProcessorInput } from '../../src/types.js';
import { backendName, testBackend } from '../support/backend.js';
import { describeNeverLarger } from '../support/never-larger.js';

const estimator = { estimate: (s: string) => Math.ceil(s.length / 3) };
function run(text: string, level: ProcessorInput['level'], budget = 4000, preserve: string[] = []) {
  return grepProcessor.process({ text, analysis: new TextAnalysis(text, testBackend()), level, budget, maxTokens: 3 * budget, estimator, preserve });
}

// rg -n: src/app.ts has 40 matches, lib/util.ts 3, README.md 1 (path:match, no line number).
const rg = [
  ...Array.from({ length: 40 }, (_, i) => `src/app.ts:${10 + i}:  const value${i} = fetchConfig('key${i}');`),
  'lib/util.ts:7:export function fetchConfig(key: string) {',
  'lib/util.ts-8-  return cache.get(key);',
  '--',
  'lib/util.ts:19:  fetchConfig.cache = new Map();',
  'lib/util.ts:30:// fetchConfig is memoised',
  'README.md:Call fetchConfig() once at startup.',
].join('\n');

describe(`grep processor (${backendName})`, () => {
  it('groups by file in input order with exact match counts; lossless keeps every hit', () => {
    const out = run(rg, 'lossless');
    const headers = out.text.split('\n').filter((l) => !l.startsWith('  '));
    expect(headers).toEqual(['src/app.ts (40 matches)', 'lib/util.ts (3 matches)', 'README.md (1 match)']);
    expect(out.text).toContain("  49:  const value39 = fetchConfig('key39');");
    expect(out.text).toContain('  8-  return cache.get(key);');
    expect(out.text).toContain('  Call fetchConfig() once at startup.');
    expect(out.omitted).toEqual({});
    expect(out.text.length).toBeLessThan(rg.length);
  });

  it('light and aggressive sample matches per file with exact markers, keeping every file', () => {
    for (const level of ['light', 'aggressive'] as const) {
      const out = run(rg, level, 400);
      expect(out.text).toContain('src/app.ts (40 matches)');
      expect(out.text).toContain('README.md (1 match)');
      const shown = out.text.split('\n').filter((l) => /^  \d+:/.test(l) && l.includes('value')).length;
      const marker = /src\/app\.ts[^]*?\[… ([\d,]+) lines omitted: \1 matching …\]/.exec(out.text);
      expect(shown + Number(marker![1])).toBe(40);
      const markers = [...out.text.matchAll(/\[… [\d,]+ lines? omitted: ([\d,]+) matching/g)].reduce((a, m) => a + Number(m[1]), 0);
      expect(out.omitted['matching lines']).toBe(markers);
    }
    expect(run(rg, 'aggressive', 400).omitted['matching lines']!).toBeGreaterThan(run(rg, 'light', 400).omitted['matching lines']!);
    // context lines past the sample are counted, never dropped silently
    const withContext = rg.replace('lib/util.ts:7:', 'lib/util.ts-6-/** docs */\nlib/util.ts:7:');
    const out = run(withContext, 'aggressive', 80);
    const kept = out.text.split('\n').filter((l) => /^  \d+[-:]/.test(l)).length;
    expect(kept + out.omitted['matching lines']! + (out.omitted['context lines'] ?? 0)).toBe(46);
  });

  it('on a tiny budget lists every file with its count and one marker for all matches', () => {
    const out = run(rg, 'light', 30);
    expect(out.text).toBe(
      ['src/app.ts (40 matches)', 'lib/util.ts (3 matches)', 'README.md (1 match)', '[… 45 lines omitted: 44 matching, 1 context …]'].join('\n'),
    );
    expect(out.omitted).toEqual({ 'matching lines': 44, 'context lines': 1 });
  });

  it('keeps preserved match lines past the sample', () => {
    const out = run(rg, 'aggressive', 100, ["fetchConfig('key33')"]);
    expect(out.text).toContain("fetchConfig('key33')");
  });

  it('refuses text without grep lines and sniffs grep output', () => {
    expect(() => run('', 'light')).toThrow(ProcessorError);
    expect(() => run('just prose here\nand more', 'light')).toThrow(ProcessorError);
    expect(() => run('\u0000\u0001\u0002\ufffd\n'.repeat(100), 'light')).toThrow(ProcessorError);
    expect(grepProcessor.sniff(rg)).toBeGreaterThan(0.9);
    expect(grepProcessor.sniff('hello world\nnothing here')).toBe(0);
    const log = Array.from({ length: 50 }, (_, i) => `nova-api.log.1.2017-05-16_13:53:08 2017-05-16 00:00:${i} INFO request ${i}`).join('\n');
    expect(grepProcessor.sniff(log)).toBeLessThan(0.1);
    expect(grepProcessor.sniff('03-17 16:13:38.811  1702  2395 D WindowManager: printFreezingDisplayLogs')).toBe(0);
  });
});

describeNeverLarger(grepProcessor, estimator);
