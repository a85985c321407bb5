import { describe, expect, it } from 'vitest';
import { TextAnalysis } from '../../src/engine/index.js';
import { ProcessorError } from '../../src/processors/errors.js';
import { pathsProcessor } from '../../src/processors/paths.js';
import type { ProcessorInput } from '../../src/types.js';
import { backendName, testBackend } from '../support/backend.js';
import { describeNeverLarger } from '../support/never-larger.js';

const estimator = { estimate: (s: string) => Math.ceil(s.length / 3) };
function run(text: string, level: ProcessorInput['level'], budget = 4000, preserve: string[] = []) {
  return pathsProcessor.process({ text, analysis: new TextAnalysis(text, testBackend()), level, budget, maxTokens: 3 * budget, estimator, preserve });
}

// `find . -type f` of a project with a big generated directory.
const find = [
  './package.json',
  './src/index.ts',
  './src/cli/main.ts',
  './src/cli/args.ts',
  ...Array.from({ length: 1180 }, (_, i) => `./src/gen/model${i}.ts`),
  ...Array.from({ length: 24 }, (_, i) => `./src/gen/schema${i}.json`),
  './docs/deep/nested/guide.md',
].join('\n');

describe(`paths processor (${backendName})`, () => {
  it('lossless folds common prefixes into a tree with file counts per directory', () => {
    const out = run(find, 'lossless');
    const lines = out.text.split('\n');
    expect(lines[0]).toBe('package.json');
    expect(lines).toContain('src/ (1,207 files)');
    expect(lines).toContain('  cli/ (2 files)');
    expect(lines).toContain('    main.ts');
    expect(lines).toContain('  gen/ (1,204 files)');
    expect(lines).toContain('    model1179.ts');
    expect(lines).toContain('docs/deep/nested/ (1 file)');
    expect(out.text.length).toBeLessThan(find.length);
  });

  it('light collapses big directories to exact counts with an extension breakdown', () => {
    const out = run(find, 'light', 200);
    expect(out.text).toContain('gen/ (1,204 files: 1,180 .ts, 24 .json)');
    expect(out.text).toContain('main.ts');
    expect(out.omitted).toEqual({ 'file names (counted per directory)': 1204 });
    expect(estimator.estimate(out.text)).toBeLessThanOrEqual(200);
  });

  it('aggressive collapses at least as much as light', () => {
    const light = run(find, 'light', 200);
    const aggressive = run(find, 'aggressive', 200);
    expect(aggressive.text.length).toBeLessThanOrEqual(light.text.length);
  });

  it('reads ls -R output (dir: headers followed by entries)', () => {
    const names = Array.from({ length: 30 }, (_, i) => `component-${i}.tsx`);
    const ls = ['.:', 'README.md', 'src', '', './src/components:', ...names].join('\n');
    expect(run(ls, 'lossless').text).toBe(ls); // the tree would not be smaller than ls -R itself
    expect(run(ls, 'light', 20).text).toBe('README.md\nsrc/components/ (30 files: 30 .tsx)');
  });

  it('keeps absolute paths absolute', () => {
    const abs = Array.from({ length: 30 }, (_, i) => `/usr/lib/python3/site-packages/mod${i}.py`).join('\n');
    expect(run(abs, 'lossless').text.split('\n')[0]).toBe('/usr/lib/python3/site-packages/ (30 files)');
  });

  it('keeps preserved paths and refuses empty listings', () => {
    const out = run(find, 'aggressive', 50, ['src/gen/model77.ts']);
    expect(out.text).toContain('src/gen/model77.ts');
    expect(() => run('', 'light')).toThrow(ProcessorError);
    const binary = '\u0000\u0001\u0002\ufffd\n'.repeat(100);
    expect(run(binary, 'light').text.length).toBeLessThanOrEqual(binary.length);
  });

  it('sniffs listings', () => {
    expect(pathsProcessor.sniff(find)).toBeGreaterThan(0.9);
    expect(pathsProcessor.sniff('This is a sentence.\nAnother one here.')).toBeLessThan(0.5);
  });
});

describeNeverLarger(pathsProcessor, estimator);
