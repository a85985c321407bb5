// The listing processor on real ls -laR, ls -l, find, du -a, du -h, tree and
// DSH glob outputs over a small project with a 300-file generated directory
// and 60 vendored packages (the runs of same-shaped lines written as @@repeat).
import { describe, expect, it } from 'vitest';
import { createEstimator } from '../../src/engine/index.js';
import { ProcessorError } from '../../src/processors/errors.js';
import { listingProcessor } from '../../src/processors/listing/index.js';
import { backendName, analysisOf } from '../support/backend.js';
import { type ProcessorLevel, runProcessor, testSqueeze } from '../support/processor-run.js';
import { fixtures } from '../support/fixtures.js';
import { describeNeverLarger } from '../support/never-larger.js';
import { extractiveViolation } from '../support/extractive.js';

const tight = { targetTokens: 2000, maxTokens: 4000, minTokens: 1, level: 'light' } as const;
const squeeze = testSqueeze(tight);
const estimator = createEstimator({ backend: backendName });
const all = fixtures('listing');

const run = (text: string, level: ProcessorLevel, budget: number, maxTokens: number, preserve: string[] = []) =>
  runProcessor(listingProcessor, text, { level, budget, maxTokens, estimator, preserve });

/** Entries the markers count: `[… lines 5–300 (296): 296 of 301 entries …]` or `[… lines 3, 9–190 (183): 180 entries …]`. */
function countedEntries(output: string): number {
  return output
    .split('\n')
    .map((l) => /^\[… lines? [\d,–, ]+(?: \([\d,]+\))?: ([\d,]+) (?:of [\d,]+ )?entr(?:y|ies)\b/.exec(l))
    .reduce((a, m) => a + (m ? Number(m[1]!.replaceAll(',', '')) : 0), 0);
}

describe(`listing processor on real ls, find, du, tree and DSH glob output (${backendName})`, () => {
  it.each(all.map((f) => [f.name, f] as const))('%s keeps its evidence under a tight budget', (_, fixture) => {
    const result = squeeze.compress(fixture.text, { toolName: 'bash', kind: 'listing' });
    expect(result.outcome).toBe('compressed');
    expect(result.kind).toBe('listing');
    expect(result.tokensOut).toBeLessThan(result.tokensIn);
    for (const needle of fixture.keep) expect(result.output).toContain(needle);
  });

  it.each(all.map((f) => [f.name, f] as const))(
    '%s: shown lines are original lines in order; markers count what went',
    (_, fixture) => {
      for (const [budget, level] of [
        [1500, 'light'],
        [300, 'aggressive'],
        [60, 'aggressive'],
      ] as const) {
        const out = run(fixture.text, level, budget, 4 * budget);
        expect(extractiveViolation(fixture.text, out.text), `budget ${budget}`).toBeNull();
        expect(countedEntries(out.text), `budget ${budget}`).toBe(
          out.omitted['entries (counted per directory)'] ?? out.omitted['entries (counted)'] ?? 0,
        );
      }
    },
  );

  it.each(all.map((f) => [f.name, f] as const))('%s never exceeds maxTokens at any level', (_, fixture) => {
    for (const level of ['lossless', 'light', 'aggressive'] as const) {
      for (const maxTokens of [4000, 300, 60]) {
        const out = run(fixture.text, level, Math.floor(maxTokens / 3), maxTokens);
        expect(estimator.estimate(out.text), `${level} ${maxTokens}`).toBeLessThanOrEqual(maxTokens);
      }
    }
  });

  it('lossless keeps the text byte-identical when it fits under maxTokens', () => {
    for (const fixture of all) expect(run(fixture.text, 'lossless', 100, 100_000).text).toBe(fixture.text);
  });

  it('ls -laR: every directory header, small directories whole, big ones by rarest and largest with a histogram', () => {
    const fixture = all.find((f) => f.name === 'ls-laR')!;
    const out = run(fixture.text, 'light', 6000, 12000);
    // Every header shows as its line, or as a merged marker names it with its count.
    const headers = fixture.text.split('\n').filter((l) => /^\.[^ ]*:$/.test(l));
    for (const header of headers) expect(out.text).toContain(header);
    expect(out.text).toMatch(/\.\/vendor: 60\b/);
    expect(out.text).toMatch(/-rw-r--r-- +1 root root +30 Dec +1 15:31 DEBUG\n/);
    expect(out.text).toContain('schema.graphql');
    expect(out.text).toMatch(/\[… lines [\d,–, ]+ \(\d+\): 300 entries in \.\/src\/gen: 300; 300 \.ts …\]/);
    expect(out.omitted['. and .. entries']).toBeGreaterThan(0);
    expect(Object.keys(out.omitted).some((k) => k.includes('DEBUG'))).toBe(false);
  });

  it('folds subtrees only when even merged markers are over budget, never the directory holding the listing', () => {
    const fixture = all.find((f) => f.name === 'ls-laR')!;
    const out = run(fixture.text, 'light', 300, 4000).text;
    expect(out).toMatch(/-rw-r--r-- +1 root root +30 Dec +1 15:31 DEBUG\n/);
    expect(out).toMatch(/\[… lines [\d,–, ]+ \(\d+\): 508 entries in \.\/src: 320, \.\/test: 8, /);
    // find's own line for the directory it was asked about holds everything: its subdirectories are named, not folded into it.
    const files = ['node_modules'];
    for (let p = 0; p < 40; p++) {
      files.push(`node_modules/pkg${p}`, `node_modules/pkg${p}/lib`);
      for (let f = 0; f < 12; f++) files.push(`node_modules/pkg${p}/lib/file${f}.js`);
    }
    const found = run(files.join('\n'), 'light', 4000, 12000);
    for (let p = 0; p < 40; p++) expect(found.text).toContain(`node_modules/pkg${p}/lib`);
    expect(countedEntries(found.text)).toBe(found.omitted['entries (counted per directory)']);
  });

  it('ls -l of a big directory over budget shows names sampled evenly across it, as many as its ration holds', () => {
    const fixture = all.find((f) => f.name === 'ls-l')!;
    const lines = fixture.text.split('\n');
    const output = squeeze.compress(fixture.text, { toolName: 'bash', kind: 'listing' }).output.split('\n');
    const shown = output.map((l) => lines.indexOf(l)).filter((i) => i > 0 && /\.ts$/.test(lines[i]!));
    expect(shown.length).toBeGreaterThan(20);
    const gaps = shown.slice(1).map((at, k) => at - shown[k]!);
    expect(Math.max(...gaps, shown[0]!, lines.length - shown.at(-1)!)).toBeLessThanOrEqual(
      (2 * lines.length) / shown.length,
    );
  });

  it('at aggressive too, names beyond the few of each big directory fill what its ration leaves', () => {
    const fixture = all.find((f) => f.name === 'ls-l')!;
    const names = (level: ProcessorLevel) =>
      run(fixture.text, level, 1000, 1500)
        .text.split('\n')
        .filter((l) => /\.ts$/.test(l)).length;
    const output = run(fixture.text, 'aggressive', 1000, 1500).text;
    expect(estimator.estimate(output)).toBeLessThanOrEqual(1000);
    expect(names('aggressive')).toBeGreaterThan(10);
    expect(names('aggressive')).toBeLessThanOrEqual(names('light'));
  });

  it('keeps a dot directory apart from its dotless namesake', () => {
    const files = (dir: string) =>
      Array.from({ length: 20 }, (_, i) => `-rw-r--r-- 1 dev dev ${100 + i} Dec  1 15:31 ${dir}${i}.txt`);
    const lines = [
      '.:',
      'drwxr-xr-x 2 dev dev 4096 Dec  1 15:31 .git',
      'drwxr-xr-x 2 dev dev 4096 Dec  1 15:31 git',
      '',
    ];
    const text = [...lines, './.git:', ...files('dot'), '', './git:', ...files('plain')].join('\n');
    const out = run(text, 'light', 2000, 6000).text;
    expect(out).toMatch(/\[… lines [\d–, ]+ \(15\): 15 of 20 entries in \.git\/: 15 \.txt …\]/);
    expect(out).toMatch(/\[… lines [\d–, ]+ \(15\): 15 of 20 entries in git\/: 15 \.txt …\]/);
  });

  it('counts one entry in the singular ("1 dotfile"), many in the plural', () => {
    const files = Array.from({ length: 40 }, (_, i) => `-rw-r--r-- 1 dev dev ${100 + i} Dec  1 15:31 f${i}.txt`);
    // A second dotfile in ./sub: a file alone of its kind in the whole listing would show.
    const text = [
      '.:',
      'drwxr-xr-x 2 dev dev 4096 Dec  1 15:31 sub',
      '-rw-r--r-- 1 dev dev   10 Dec  1 15:31 .env',
      ...files,
      '',
      './sub:',
      '-rw-r--r-- 1 dev dev   10 Dec  1 15:31 .npmrc',
    ].join('\n');
    const out = run(text, 'aggressive', 60, 400).text;
    expect(out).toMatch(/\b39 \.txt, 1 dotfile\b/);
    expect(out).not.toMatch(/\b1 (dirs|dotfiles)\b/);
  });

  it('shows a file alone of its kind in the whole listing at every detail, unless such files are many', () => {
    const paths = ['src'];
    for (let d = 0; d < 20; d++) for (let f = 0; f < 15; f++) paths.push(`src/mod${d}/file${f}.ts`);
    paths.splice(150, 0, 'src/mod9/grammar.bnf');
    for (const level of ['light', 'aggressive'] as const) {
      const out = run(paths.join('\n'), level, 150, 600).text;
      expect(out, level).toContain('src/mod9/grammar.bnf');
      expect(countedEntries(out)).toBeGreaterThan(250);
    }
    // Rotated logs, each its own extension: none stands out, and they are counted like any other entries.
    const logs = Array.from({ length: 60 }, (_, i) => `logs/app.log.${i + 1}`);
    const out = run(['logs', ...logs].join('\n'), 'aggressive', 60, 400).text;
    expect(out.split('\n').filter((l) => l.startsWith('logs/app.log.')).length).toBeLessThan(10);
  });

  it('keeps preserved entries and refuses empty listings', () => {
    const fixture = all.find((f) => f.name === 'find')!;
    expect(run(fixture.text, 'aggressive', 100, 400, ['./src/gen/entity77.ts']).text).toContain(
      './src/gen/entity77.ts',
    );
    expect(() => run('', 'light', 100, 300)).toThrow(ProcessorError);
  });

  it('compresses paths tens of thousands of levels deep within the default time budget', () => {
    // Each deep line stays under 65,536 characters; walking its ancestors once cost its depth squared.
    const normal = Array.from({ length: 50 }, (_, i) => `src/dir${i % 5}/file${i}.ts`);
    const deep = [0, 1, 2].map((k) => `${'a/'.repeat(32_000)}f${k}.txt`);
    const text = [...normal, ...deep].join('\n');
    for (const hints of [{ toolName: 'glob' }, { toolName: 'bash', command: 'find .' }]) {
      const result = testSqueeze().compress(text, hints);
      expect(result, JSON.stringify(hints)).toMatchObject({ outcome: 'compressed', kind: 'listing' });
      expect(result.timedOut, JSON.stringify(hints)).not.toBe(true);
      expect(result.tokensOut).toBeLessThan(result.tokensIn);
    }
  });

  it('npm ls: every top-level package shows, each subtree counted under its package, never under tree drawing', () => {
    const tree = all.find((f) => f.name === 'npm-ls-problems')!;
    const lines = tree.text.split('\n');
    const topLevel = lines.filter((l) => /^[├└]─[─┬] /.test(l));
    expect(topLevel.length).toBeGreaterThan(20);
    const out = run(tree.text, 'light', 2500, 5000);
    const shown = out.text.split('\n');
    for (const line of topLevel) expect(shown).toContain(line);
    const markers = shown.filter((l) => l.startsWith('[… '));
    expect(markers.length).toBeGreaterThan(0);
    // A subtree is named by its package (`@biomejs/biome@2.6.8/`), counted as packages, deduped, unmet optional.
    expect(markers.some((m) => m.includes(' entries in @biomejs/biome@2.6.8/'))).toBe(true);
    for (const marker of markers) expect(marker).not.toMatch(/[│├└]/);
    expect(countedEntries(out.text)).toBe(out.omitted['entries (counted per directory)']);
  });

  it('ls -l of one big directory shows the entries that stand out: a rare mode, an empty file, a huge one', () => {
    const row = (mode: string, size: number, i: number) =>
      `${mode} 1 app app ${String(size).padStart(8)} Dec  2 21:36 report_${i}.csv`;
    const rows = Array.from({ length: 300 }, (_, k) => {
      const i = k + 1;
      if (i === 150) return row('-rwxrwxrwx', 1000 + 7 * i, i);
      return row('-rw-r--r--', i === 200 ? 0 : i === 250 ? 50_000_000 : 1000 + 7 * i, i);
    });
    const text = ['total 50040', row('drwxr-xr-x', 4096, 0).replace('report_0.csv', '.'), ...rows, ''].join('\n');
    const result = squeeze.compress(text, { toolName: 'bash', command: 'ls -la reports' });
    expect(result.kind).toBe('listing');
    expect(result.tokensOut).toBeLessThan(result.tokensIn / 2);
    const shown = result.output.split('\n');
    for (const i of [150, 200, 250]) expect(shown).toContain(rows[i - 1]);
  });

  it('ls -l: a line of another shape is a message shown where it is, never counted as an entry', () => {
    // Every fifth row with a size as `ls -l --si` prints it, which the row parser does not read: an entry still.
    const size = (i: number) => (i % 5 === 0 ? `${(1 + i / 10).toFixed(1)}k` : String(1000 + 7 * i));
    const row = (i: number) => `-rw-r--r-- 1 app app ${size(i).padStart(8)} Dec  2 21:36 report_${i}.csv`;
    const rows = Array.from({ length: 300 }, (_, k) => row(k + 1));
    const denied = "ls: cannot open directory './reports/private': Permission denied";
    const note = '[output truncated; full output: /tmp/run-1/stdout.log]';
    const text = ['total 1200', ...rows.slice(0, 150), denied, ...rows.slice(150), '', note].join('\n');
    const result = testSqueeze(tight).compress(text, { toolName: 'bash', command: 'ls -l reports' });
    expect(result.kind).toBe('listing');
    expect(result.tokensOut).toBeLessThanOrEqual(tight.targetTokens);
    const shown = result.output.split('\n');
    expect(shown).toContain(denied);
    // In place: after the shown rows printed before it, before those printed after it.
    const at = shown.indexOf(denied);
    shown.forEach((line, k) => {
      const n = rows.indexOf(line);
      if (n >= 0) expect(k < at, line).toBe(n < 150);
    });
    expect(shown).toContain(note);
    expect(countedEntries(result.output) + shown.filter((l) => l.startsWith('-rw-')).length).toBe(300);
    // ls -laR of the project with the note a runner appends at the end: the note stays, counted as no entry.
    const laR = all.find((f) => f.name === 'ls-laR')!;
    const noted = `${laR.text.trimEnd()}\n\n${note}\n`;
    const out = testSqueeze(tight).compress(noted, { toolName: 'bash', command: 'ls -laR' }).output;
    expect(out.split('\n')).toContain(note);
  });

  it('sniffs listings, not prose or grep output', () => {
    for (const fixture of all)
      expect(listingProcessor.sniff(analysisOf(fixture.text)), fixture.name).toBeGreaterThan(0.9);
    expect(listingProcessor.sniff(analysisOf('This is a sentence.\nAnother one here.'))).toBeLessThan(0.5);
    expect(listingProcessor.sniff(analysisOf('src/a.ts:12:  const x = 1;\nsrc/b.ts:3:  return x;'))).toBeLessThan(0.5);
  });
});

describeNeverLarger(listingProcessor, { estimate: (s: string) => Math.ceil(s.length / 3) });
