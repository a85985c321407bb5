import { describe, expect, it } from 'vitest';
import { createSqueeze } from '../../src/index.js';
import { TextAnalysis } from '../../src/engine/index.js';
import { foldShapes, MAX_LISTED, ShapeRuns, shapeRuns, shownDistinctMilli } from '../../src/pipeline/shapes.js';
import { parseSqueezeLine } from '../../src/processors/markers.js';
import { extractiveViolation } from '../support/extractive.js';
import { backendName, testBackend } from '../support/backend.js';
import { fixtures } from '../support/fixtures.js';

const squeeze = () => createSqueeze({ backend: backendName, minTokens: 10, store: null, retainOriginal: false });
const stamp = (i: number) => `2026-12-02T10:00:${String(i % 60).padStart(2, '0')}.${String(i).padStart(3, '0')}Z`;

describe(`same-shape runs at the lossless level (${backendName})`, () => {
  it('folds lines differing only in timestamps and counters to the first, with the exact count', () => {
    const polls = Array.from({ length: 30 }, (_, i) => `${stamp(i)} INFO poll ${i} returned 200 in ${i % 7} ms`);
    const text = ['server started', ...polls, 'server stopped'].join('\n');
    const result = squeeze().compress(text, { kind: 'log' });
    expect(result.level).toBe('lossless');
    expect(result.output).toContain(polls[0]);
    expect(result.output).toMatch(/^\[… lines 3–31 \(29\): 29 more of the line shown above; varying: /m);
    expect(result.omitted['lines of same-shape runs']).toBe(29);
    expect(extractiveViolation(text, result.output)).toBeNull();
  });

  it('folds repeated blocks of one shape (download progress) to the first block, and warnings of one shape to the first', () => {
    const downloads = Array.from({ length: 40 }, (_, i) => [
      '   Downloading crates.io index',
      `   Downloading serde v1.0.${i}`,
    ]);
    const warnings = Array.from({ length: 5 }, (_, i) => `warning: unused variable: var_${i}`);
    const text = [...downloads.flat(), ...warnings, '   Compiling demo v0.1.0'].join('\n');
    const result = squeeze().compress(text, { kind: 'log' });
    expect(result.output).toContain(
      '   Downloading serde v1.0.0\n[… lines 3–80 (78): 39 more of the 2-line block shown above; varying: 1.0.0 to 1.0.39 in equal steps …]',
    );
    expect(result.output).toContain(
      `${warnings[0]}\n[… lines 82–85 (4): 4 more of the line shown above; varying: 0 to 4 in equal steps …]`,
    );
    expect(extractiveViolation(text, result.output)).toBeNull();
  });

  it('folds warnings of one shape apart from warnings of another', () => {
    const waits = Array.from({ length: 15 }, (_, i) => `${stamp(i)} WARN connection pool exhausted, waiting`);
    const slow = Array.from({ length: 15 }, (_, i) => `${stamp(i)} WARN query ${i} slow`);
    const text = ['start', ...waits, ...slow, 'done'].join('\n');
    const output = squeeze().compress(text, { kind: 'log' }).output;
    expect(output).toMatch(/^\[… lines 3–16 \(14\): 14 more of the line shown above; varying: /m);
    expect(output).toContain(`${slow[0]}\n[… lines 18–31 (14): 14 more of the line shown above; varying: `);
    expect(extractiveViolation(text, output)).toBeNull();
  });

  it('folds a listing exactly: each varying field counts in equal steps or has every value listed in turn', () => {
    const sizes = [12344, 68350, 6748, 97136, 5454, 39488, 59194, 35674, 16311, 9209, 85467, 27874];
    const rows = sizes.map(
      (size, i) => `-rw-r--r--  1 dev  staff  ${size} Mar 23 01:21 file_${String(i).padStart(3, '0')}.ts`,
    );
    const text = ['total 2048', ...rows].join('\n');
    const result = squeeze().compress(text, { kind: 'listing' });
    expect(result.level).toBe('lossless');
    const marker = result.output.split('\n').find((line) => parseSqueezeLine(line)?.type === 'omission');
    expect(marker).toContain(`in turn: ${sizes.join(', ')}`);
    expect(marker).toContain('; 000 to 011 in equal steps');
    expect(result.omitted['lines of same-shape runs']).toBe(sizes.length - 1);
    expect(extractiveViolation(text, result.output)).toBeNull();
  });

  it('keeps warnings whose varying values do not count in equal steps: each names another thing', () => {
    const files = [4, 12, 7, 15, 11, 8, 2, 0, 13, 5, 9, 6];
    const warnings = files.map((f) => `[WARNING] /src/main/java/Assignment${f}.java:[1] [DefaultPackage] no package`);
    const text = ['[INFO] Compiling 17 source files', ...warnings, '[INFO] BUILD SUCCESS'].join('\n');
    const output = squeeze().compress(text, { kind: 'log' }).output;
    for (const line of warnings) expect(output).toContain(line);
  });

  it('never folds error lines (nor the warnings between them), and leaves identical repeats to the exact collapse', () => {
    const errors = Array.from(
      { length: 20 },
      (_, i) => `${stamp(i)} ${i % 2 ? 'WARN' : 'ERROR'} request ${i} slow: timeout`,
    );
    const same = Array.from({ length: 20 }, () => 'heartbeat ok');
    const text = [...errors, ...same, 'done'].join('\n');
    const output = squeeze().compress(text, { kind: 'log' }).output;
    for (const line of errors) expect(output).toContain(line);
    expect(output).toContain('[×20 lines 21–40] heartbeat ok');
    expect(output).not.toContain('more of the');
  });

  // Progress output (docker pull, wget, tqdm, a script's bar): the bar's inside is one field, so the
  // lines of one bar are one shape and fold to the first, whatever the bar shows.
  it.each(fixtures('progress'))('$name: each progress bar folds to its first line', (fixture) => {
    const result = squeeze().compress(fixture.text, { toolName: 'bash' });
    expect(result.level).toBe('lossless');
    for (const kept of fixture.keep) expect(result.output).toContain(kept);
    const bars = fixture.text
      .split('\n')
      .filter((line) => /[[|⸨][ #*.<=>~\-\u2500-\u259f\u2800-\u28ff]{3,}[\]|⸩]/.test(line));
    const shown = result.output.split('\n').filter((line) => bars.includes(line));
    // A few lines per bar (a run per layer and phase in docker pull; tqdm's empty 0% bar and its
    // unpadded 100% line are shapes of their own), never most of them.
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThanOrEqual(Math.min(3, bars.length / 4));
    expect(result.omitted['lines of same-shape runs']).toBeGreaterThanOrEqual(bars.length - shown.length);
    expect(extractiveViolation(fixture.text, result.output)).toBeNull();
  });

  // Same-shape runs of real output shapes (test/fixtures/shapes): the first block whole, the rest
  // counted by markers that name every hidden line, warnings located, errors and their like whole.
  it.each(fixtures('shapes'))('$name: one block whole, the rest counted, the errors whole', (fixture) => {
    const result = squeeze().compress(fixture.text, { toolName: 'bash' });
    expect(result.level).toBe('lossless');
    for (const kept of fixture.keep) expect(result.output).toContain(kept);
    const lines = fixture.text.split('\n');
    for (const line of lines) if (/^(?:error|ERROR|FATAL)/.test(line)) expect(result.output).toContain(line);
    const markers = result.output
      .split('\n')
      .map((line) => parseSqueezeLine(line))
      .filter((line) => line?.type === 'omission');
    expect(markers.reduce((sum, marker) => sum + marker.count, 0)).toBe(result.omitted['lines of same-shape runs']);
    expect(extractiveViolation(fixture.text, result.output)).toBeNull();
    const warnings = lines.filter((line) => line.startsWith('warning:')).length;
    if (warnings === 0) return;
    // Warnings: one marker, with where the later ones are (listed when few, else their range in equal steps).
    expect(markers).toHaveLength(1);
    const [marker] = markers.map((m) => m!.text);
    const blockLines = (result.omitted['lines of same-shape runs'] ?? 0) / (warnings - 1);
    expect(marker).toContain(`${warnings - 1} more of the ${blockLines === 1 ? 'line' : `${blockLines}-line block`}`);
    const places = lines.flatMap((line) => line.split(' ').filter((word) => /\.rs:\d/.test(word)));
    if (warnings - 1 <= MAX_LISTED) expect(marker).toContain(`at ${places.slice(1, warnings).join(', ')}`);
    else expect(marker).toMatch(new RegExp(`(?:varying: |; )${places[0]!.split(':').slice(1).join(':')} to `));
  });

  it('says values that two fields share once (a resource index and its file name)', () => {
    const block = (i: number) => [`  # asset[${i}] will be created`, `      + key = "assets/file${i}.js"`, '    }'];
    const text = Array.from({ length: 30 }, (_, i) => block(i))
      .flat()
      .join('\n');
    const output = squeeze().compress(text, { toolName: 'bash' }).output;
    const marker = output.split('\n').find((l) => l.includes('varying: '))!;
    expect(marker).toContain('varying: 0 to 29 in equal steps');
    expect(marker.split('0 to 29 in equal steps').length).toBe(2);
  });

  it("puts a floor under the folded text's distinct line costs from the runs alone (never above them)", () => {
    const distinct = (analysis: TextAnalysis) => {
      const { group } = analysis.exact;
      let sum = 0;
      for (let i = 0; i < group.length; i++) if (group[i] === i) sum += analysis.lineTokens.milli[i]!;
      return sum;
    };
    let folds = 0;
    for (const folder of ['shapes', 'logs', 'progress', 'listing']) {
      for (const fixture of fixtures(folder)) {
        for (const exact of [false, true]) {
          const analysis = new TextAnalysis(fixture.text, testBackend());
          const runs = shapeRuns(analysis, new Set(), exact);
          const floor = shownDistinctMilli(analysis, runs, analysis.lineTokens.milli, new Set());
          const folded = foldShapes(analysis, new Set(), exact, runs);
          const whole = folded ? distinct(new TextAnalysis(folded.text, testBackend())) : distinct(analysis);
          expect(floor, fixture.name).toBeLessThanOrEqual(whole);
          if (folded) folds++;
        }
      }
    }
    expect(folds).toBeGreaterThan(10);
  });

  it('stops the floor once it passes a limit, still a floor and past the limit, the runs read on from where it stopped', () => {
    let stopped = 0;
    for (const fixture of [...fixtures('shapes'), ...fixtures('logs')]) {
      const analysis = new TextAnalysis(fixture.text, testBackend());
      const whole = shownDistinctMilli(analysis, shapeRuns(analysis), analysis.lineTokens.milli, new Set());
      const limit = whole / 4;
      const runs = new ShapeRuns(analysis);
      const partial = shownDistinctMilli(analysis, runs, analysis.lineTokens.milli, new Set(), limit);
      expect(partial, fixture.name).toBeLessThanOrEqual(whole);
      if (partial < whole) {
        stopped++;
        expect(partial, fixture.name).toBeGreaterThan(limit);
      }
      expect([...runs], fixture.name).toEqual(shapeRuns(analysis));
    }
    expect(stopped).toBeGreaterThan(3);
  });
});
