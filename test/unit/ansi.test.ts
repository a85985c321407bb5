// Colour and cursor codes leave what the model sees at every level above
// minTokens (src/pipeline/ansi.ts): the notice says so once, the stored
// original keeps every byte, and a coloured run costs what its plain text does.
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { plainAnalysis } from '../../src/pipeline/ansi.js';
import { createSqueeze } from '../../src/pipeline/index.js';
import { TERMINAL_CODES_NOTE } from '../../src/processors/markers.js';
import { createStore } from '../../src/store/store.js';
import { analysisOf, backendName, testBackend } from '../support/backend.js';
import { extractiveViolation } from '../support/extractive.js';
import { fixtures } from '../support/fixtures.js';

const coloured = fixtures('logs').filter((f) => f.text.includes('\u001b['));

describe(`colour and cursor codes (${backendName})`, () => {
  it('has coloured fixtures to run on', () => {
    expect(coloured.map((f) => f.name)).toContain('vitest-colour');
  });

  it.each(coloured.map((f) => [f.name, f] as const))(
    '%s: the plain analysis classes its lines as a fresh analysis of the plain text does',
    (_, fixture) => {
      const plain = plainAnalysis(analysisOf(fixture.text), testBackend())!;
      expect(plain.text).toBe(stripVTControlCharacters(fixture.text));
      const fresh = analysisOf(plain.text).classes;
      expect(Array.from(plain.classes.flags)).toEqual(Array.from(fresh.flags));
      expect(plain.classes.summary).toBe(fresh.summary);
    },
  );

  it.each(
    coloured.flatMap((f) => (['lossless', 'light', 'aggressive'] as const).map((level) => [f.name, level, f] as const)),
  )('%s at %s: shown without codes, said once, the original retrievable byte for byte', (_, level, fixture) => {
    const store = createStore();
    const squeeze = createSqueeze({ backend: backendName, store, minTokens: 50, recentResults: 0 });
    const result = squeeze.compress(fixture.text, { toolName: 'bash', level });
    expect(result.outcome).toBe('compressed');
    expect(result.codesRemoved).toBe(true);
    expect(result.output).not.toContain('\u001b');
    expect(result.output.split('\n').filter((line) => line === TERMINAL_CODES_NOTE)).toHaveLength(1);
    for (const needle of fixture.keep) expect(result.output).toContain(needle);
    expect(extractiveViolation(fixture.text, result.output.slice(0, result.output.indexOf('<<<CCR:')))).toBeNull();
    const stored = store.get(result.id!);
    expect(stored.found && stored.entry.text).toBe(fixture.text);
  });

  it.each(coloured.map((f) => [f.name, f] as const))(
    '%s costs what its plain text does, and the note',
    (_, fixture) => {
      const squeeze = createSqueeze({ backend: backendName, minTokens: 50, recentResults: 0 });
      const plain = stripVTControlCharacters(fixture.text);
      const colouredOut = squeeze.compress(fixture.text, { toolName: 'bash' });
      const plainOut = squeeze.compress(plain, { toolName: 'bash' });
      expect(plainOut.outcome).toBe('compressed');
      expect(plainOut.codesRemoved).toBeUndefined();
      expect(plainOut.output).not.toContain(TERMINAL_CODES_NOTE);
      // The same lines shown; the notices differ by the note and the original's size.
      const body = (output: string) => output.slice(0, output.indexOf('<<<CCR:'));
      expect(body(colouredOut.output)).toBe(body(plainOut.output));
      expect(colouredOut.tokensOut).toBeLessThanOrEqual(
        plainOut.tokensOut + squeeze.estimator.estimate(`${TERMINAL_CODES_NOTE}\n`) + 2,
      );
    },
  );

  // As `grep --color=always`, `ls --color` or `jq -C` colour them: every line wrapped in codes.
  const paint = (text: string) =>
    text
      .split('\n')
      .map((line) => (line === '' ? line : `\u001b[35m${line}\u001b[m`))
      .join('\n');
  const kinds = ['grep', 'listing', 'diff', 'gitlog', 'table'].flatMap((folder) =>
    fixtures(folder).map((f) => [`${folder}/${f.name}`, f.text] as const),
  );

  it.each(kinds)('%s coloured is routed as its plain text is', (_, text) => {
    const squeeze = createSqueeze({ backend: backendName, minTokens: 50, recentResults: 0 });
    const plain = squeeze.compress(text, { toolName: 'bash' });
    const painted = squeeze.compress(paint(text), { toolName: 'bash' });
    expect(painted.kind).toBe(plain.kind);
  });

  it('leaves a coloured text below minTokens as it came', () => {
    const text = '\u001b[31mERROR\u001b[0m disk full\n';
    const result = createSqueeze({ backend: backendName }).compress(text);
    expect(result.outcome).toBe('below-min-tokens');
    expect(result.output).toBe(text);
  });
});
