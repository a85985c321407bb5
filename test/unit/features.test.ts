// The routing features are the rules the sniffers used to run on split lines:
// each shape bit must say what its regex says, and each field count what
// splitting the line at its delimiter (quotes honoured) gives, on every head
// line of the routing fixtures and on random lines made of the rules' own characters.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DELIMITERS, FEATURE, FIELD_UNITS, TAG_SAMPLE } from '../../src/engine/contract.js';
import { TextAnalysis } from '../../src/engine/index.js';
import { backendName, testBackend } from '../support/backend.js';
import { splitDelimited } from '../../src/processors/table/index.js';

const RULES: Record<keyof typeof FEATURE, (line: string) => boolean> = {
  BLANK: (l) => l.trim() === '',
  SEPARATOR: (l) => /^[-=+|:\s─━═┌┐└┘├┤┬┴┼╞╡╪╔╗╚╝╠╣╦╩╬]+$/.test(l),
  MARKUP: (l) => /^\s*<[A-Za-z!/]/.test(l),
  DATED: (l) => /^\[?\d{2,4}[-/:.]\d{1,2}[-/:.]\d{1,2}/.test(l),
  CODE_END: (l) => /(?:[{}();,:]|=>|\*\/)\s*$|^\s*(?:\/\/|#|\*|\/\*)/.test(l),
  AT_AT: (l) => l.startsWith('@@'),
  DIFF_WORD: (l) => l.startsWith('diff '),
};

/** What the features should be, computed from the head lines with the regexes. */
function expected(text: string, head: readonly string[]) {
  const sample = text.slice(0, TAG_SAMPLE);
  return {
    shape: head.map((line) =>
      Object.entries(RULES).reduce(
        (word, [name, rule]) => (rule(line) ? word | FEATURE[name as keyof typeof FEATURE] : word),
        0,
      ),
    ),
    fields: head.flatMap((line) => DELIMITERS.map((d) => splitDelimited(line.slice(0, FIELD_UNITS), d).length)),
    sampleFeeds: sample.split('\n').length - 1,
  };
}

function check(text: string): void {
  const a = new TextAnalysis(text, testBackend());
  const { shape, fields, sampleFeeds, tagOpenings } = a.features;
  expect({ shape: Array.from(shape), fields: Array.from(fields), sampleFeeds }).toEqual(
    expected(text, a.headLines(a.features.lines)),
  );
  const tags = Array.from(text.slice(0, TAG_SAMPLE).matchAll(/<(\/?)([a-z][a-z0-9]*)([\s>/])/gi)).length;
  expect(tagOpenings).toBeGreaterThanOrEqual(tags);
}

const DIR = resolve(import.meta.dirname, '../fixtures/routing-outputs');
const fixtures = readdirSync(DIR).filter((name) => name.endsWith('.txt'));

describe(`routing features say what the sniffers' rules say (${backendName})`, () => {
  it.each(fixtures)('on %s', (name) => check(readFileSync(join(DIR, name), 'utf8')));

  it('on random lines made of the rules’ own characters', () => {
    const piece = fc.constantFrom(
      ...['@@', 'diff ', '"', '\t', ',', ';', '|', '│', '─', '╬', '-', '=', '+', ':', ' ', '\u3000', '\ufeff'],
      ...['<a', '</b', '<!', '<', '>', '[', '2024', '-', '/', '.', '1', '12', '=>', '*/', '//', '/*', '#', '*'],
      ...['{', '}', '(', ')', ';', 'x', '\n', '\r\n', '\r'],
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 200 }), (parts) => check(parts.join(''))),
      { numRuns: 500 },
    );
  });
});
