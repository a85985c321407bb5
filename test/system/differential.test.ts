// Both backends must agree bit for bit: on every corpus file, on random and
// malformed strings, and on length sweeps around SIMD and buffer boundaries.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBackend, TextAnalysis, tokenProfile } from '../../src/engine/index.js';
import type { Backend, BlockSpans } from '../../src/engine/index.js';
import { COST, COST_SLOTS } from '../../src/engine/contract.js';
import { corpusFiles, skipWithoutSharedCorpus } from '../support/corpus.js';

const wasm = createBackend('wasm');
const js = createBackend('js');

/** Every kernel's output for a text, as plain arrays. */
function everything(text: string, backend = wasm) {
  const a = new TextAnalysis(text, backend);
  const { count, start, end, hashA, hashB } = a.lines;
  const exact = a.exact;
  const tokens = {
    deepseek: backend.estimateTokens(tokenProfile('deepseek-v3').costs),
    o200k: backend.estimateTokens(tokenProfile('o200k').costs),
    lines: Array.from(a.lineTokens.milli),
    lineTotal: a.lineTokens.tokens,
  };
  return {
    tokens,
    count,
    start: Array.from(start),
    end: Array.from(end),
    hashA: Array.from(hashA),
    hashB: Array.from(hashB),
    group: Array.from(exact.group),
    size: Array.from(exact.size),
    distinct: exact.distinct,
    ...templatesAndRepeats(a),
    ...classesAndWindows(a, backend),
    ...features(a),
    ...fields(a),
    idMaskedA: Array.from(backend.idMaskedHashes(start, end, count).hashA),
    idMaskedB: Array.from(backend.idMaskedHashes(start, end, count).hashB),
  };
}

/**
 * Field spans of every line (the first line leads, as in a same-shape group),
 * of every other line from the last, and of the first 3 fields only; the
 * volatile fields (what the templates mask) of every line and the first 2 of
 * every other line from the last.
 */
function fields(a: TextAnalysis) {
  const plain = ({ spans, first, width }: ReturnType<TextAnalysis['fieldSpans']>) => [
    Array.from(spans),
    Array.from(first),
    width,
  ];
  const all = Array.from({ length: a.lines.count }, (_, i) => i);
  const backwards = all.filter((i) => i % 2 === 0).reverse();
  return {
    fields: plain(a.fieldSpans(all, 32)),
    fieldsBack: plain(a.fieldSpans(backwards, 32)),
    fields3: plain(a.fieldSpans(all, 3)),
    volatile: plain(a.volatileFields(all, 64)),
    volatileBack: plain(a.volatileFields(backwards, 2)),
  };
}

/** What routing reads: head shapes, delimiter fields, tag-like openings and line feeds at the start. */
function features(a: TextAnalysis) {
  const { lines, shape, fields, tagOpenings, sampleFeeds } = a.features;
  return { featureLines: lines, shape: Array.from(shape), fields: Array.from(fields), tagOpenings, sampleFeeds };
}

/** Template fingerprints and groups, repeated blocks, windows, and blocks seen in an earlier text. */
function templatesAndRepeats(a: TextAnalysis) {
  const plain = (spans: BlockSpans) => [Array.from(spans.start), Array.from(spans.lines), Array.from(spans.source)];
  const windows = a.windows(3);
  // the text's own windows stand in for earlier results: owners change every 37 entries
  const seen = { ...windows, owner: Int32Array.from(windows.hashA, (_, i) => Math.floor(i / 37)) };
  return {
    templateA: Array.from(a.templateHashes.hashA),
    templateB: Array.from(a.templateHashes.hashB),
    templateGroup: Array.from(a.templates.group),
    templateDistinct: a.templates.distinct,
    idMaskedGroup: Array.from(a.idMaskedShapes.group),
    idMaskedDistinct: a.idMaskedShapes.distinct,
    repeats: plain(a.repeatedBlocks(3)),
    repeats1: plain(a.repeatedBlocks(1)),
    templateRepeats: plain(a.repeatedBlocks(2, 'template')),
    windowA: Array.from(windows.hashA),
    windowB: Array.from(windows.hashB),
    seen: plain(a.seenBlocks(seen, 3)),
  };
}

/** Line classes, and a window plan built from them (priority from flags, cost from line length). */
function classesAndWindows(a: TextAnalysis, backend: Backend) {
  const { flags, summary } = a.classes;
  const { count, start, end } = a.lines;
  const priority = Int32Array.from(flags, (f) => (f & 0x3f8) >>> 3);
  const cost = Int32Array.from({ length: count }, (_, i) => ((end[i]! - start[i]!) >> 2) + 1);
  const plan = backend.planWindows({
    count,
    priority,
    cost,
    levels: flags,
    budget: count * 2,
    head: 5,
    tail: 5,
    before: 2,
    after: 3,
  });
  return {
    flags: Array.from(flags),
    classSummary: summary,
    spans: Array.from(plan.spans),
    omittedBySeverity: Array.from(plan.omittedBySeverity),
    keptTokens: plan.keptTokens,
    keptLines: plan.keptLines,
  };
}

function agree(text: string): void {
  expect(everything(text, wasm)).toEqual(everything(text, js));
}

const nasty = fc.constantFrom(
  '\n',
  '\r',
  '\r\n',
  '\u0000',
  '\ud800',
  '\udfff',
  '😀',
  '中',
  ' ',
  'a',
  '9',
  '\t',
  '\u001b[31m',
  // token classes: words by case, digit groups, hex runs, punctuation, scripts
  'Word',
  'camelCase',
  'ALLCAPS',
  '12345',
  'deadbeef0123456789',
  '://',
  'é',
  'Ж',
  '—',
  'か',
  '한',
  '    ',
);
// pieces of volatile fields, so random text hits every masking rule and its edges
const fieldy = fc.constantFrom(
  '0x',
  '1f',
  'deadbeef',
  '-',
  '+',
  '.',
  ':',
  '::',
  '_',
  ',',
  '/',
  'T',
  'Z',
  '  ',
  'Jan',
  'Sun',
  'Dec',
  'ab',
  'xyz',
  'G7',
  '38101a0b-2096-447d-96ea-a692162415ae',
  'abcdefab-cdef-abcd-efab-cdefab',
  '\uffff',
  '12:03:44,123',
  '\u001b[',
  '\u001b[1;',
);

/** Fragments the classifier dispatches on, to reach its rules from random input. */
const logWords = fc.constantFrom(
  'ERROR',
  'error:',
  'Error',
  'WARN',
  'warning',
  'INFO',
  'D ',
  'E/',
  '<3>',
  '[error]',
  'level=',
  '"level":"',
  'FATAL',
  'Exception',
  'NullPointerException',
  'Traceback (',
  'Caused by:',
  '  File "',
  '    at ',
  '\t... 3 more',
  'goroutine 1 [',
  'panicked at',
  '.java:',
  '.c:12:5',
  '.cs(12,5)',
  '.go:12 +0x1d',
  ':line 4',
  'FAIL',
  '--- FAIL:',
  'not ok',
  '✕',
  '×',
  'assert',
  'Expected',
  'Tests:',
  ' failed',
  ' passed',
  '(s)',
  '== ',
  'BUILD FAILURE',
  '[INFO] ',
  'timed out',
  ' not found',
  'unable to',
  '::',
  '0x',
  '12',
  '1 ',
  '\u001b]0;t\u0007',
  '\u001b[',
  '[',
  ']',
  '<',
  '>',
  ':',
  '(',
  ')',
  '.',
  '_',
  '"',
  '=',
);

describe('wasm and js backends agree', () => {
  const noCorpus = skipWithoutSharedCorpus('wasm and js backends agree on the corpus files');
  describe.skipIf(noCorpus)('on the corpus', () => {
    it.each((noCorpus ? [] : corpusFiles()).map((f) => [`${f.folder}/${f.name}`, f.text]))(
      'on corpus %s',
      (_, text) => {
        agree(text as string);
      },
    );
  });

  it('on random strings with lone surrogates, NUL and every line ending', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(nasty, fc.string({ unit: 'binary' })), { maxLength: 400 }), (parts) => {
        agree(parts.join(''));
      }),
      { numRuns: 300 },
    );
  });

  it('on random log-like lines built from the pieces of volatile fields', () => {
    const line = fc.array(fc.oneof(fieldy, fieldy, nasty, fc.integer({ min: 0, max: 99999 }).map(String)), {
      maxLength: 30,
    });
    fc.assert(
      fc.property(fc.array(line, { maxLength: 60 }), (lines) => {
        const text = lines.map((l) => l.join('')).join('\n');
        agree(`${text}\n${text}`);
      }),
      { numRuns: 300 },
    );
  });

  it("on random log-like lines built from the classifier's own keywords", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(logWords, logWords, nasty, fc.string({ maxLength: 6 })), { maxLength: 300 }),
        (parts) => {
          agree(parts.join(''));
        },
      ),
      { numRuns: 400 },
    );
  });

  it("on random lines built from the routing features' own shapes", () => {
    const shapes = fc.constantFrom(
      '@@ -1 +1 @@',
      '@@',
      'diff --git ',
      'diff ',
      '"',
      '""',
      '\t',
      ',',
      ';',
      '|',
      '\u2502',
      '\u2500',
      '\u256c',
      '-',
      '=',
      '+',
      '<a ',
      '</b>',
      '<!',
      '<',
      '[',
      '2024-01-02',
      '12.3',
      '=>',
      '*/',
      '//',
      '/*',
      '#',
      '*',
      '{',
      ')',
      '\u3000',
      '\ufeff',
      '\u00a0',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(shapes, shapes, nasty), { maxLength: 300 }), (parts) => {
        agree(parts.join(''));
      }),
      { numRuns: 400 },
    );
  });

  it('on token estimates under random cost tables (any thresholds)', () => {
    const costs = fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: COST_SLOTS, maxLength: COST_SLOTS });
    const threshold = fc.integer({ min: 0, max: 40 });
    const text = fc.array(
      fc.oneof(nasty, nasty, fc.constantFrom('1'.repeat(17), 'Q'.repeat(16), ' '.repeat(18), 'aB'.repeat(9))),
      { maxLength: 200 },
    );
    fc.assert(
      fc.property(costs, threshold, threshold, text, (table, wsLongFrom, hexFrom, parts) => {
        const profile = Int32Array.from(table);
        profile[COST.WS_LONG_FROM] = wsLongFrom;
        profile[COST.HEX_FROM] = hexFrom;
        const joined = parts.join('');
        const [a, b] = [wasm, js].map((backend) => {
          const analysis = new TextAnalysis(joined, backend);
          const lines = analysis.lineTokensFor({ name: 'random', costs: profile });
          backend.begin(joined);
          return { text: backend.estimateTokens(profile), lines: Array.from(lines.milli), total: lines.tokens };
        });
        expect(a).toEqual(b);
      }),
      { numRuns: 300 },
    );
  });

  it('on length sweeps around vector and buffer sizes', () => {
    for (const n of [0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 2047, 2048, 2049, 65535, 65536, 65537]) {
      agree('a'.repeat(n));
      agree('ab\n'.repeat(n));
      agree('\n'.repeat(n));
      agree(`${'x\r\n'.repeat(n)}tail`);
      // token runs ending at, before and after the text's last SIMD block
      agree(`${' '.repeat(n)}x`);
      agree('Ab1 ,'.repeat(n >> 2) + 'z'.repeat(n & 15));
      agree('took 5ms at 10.0.0.1:80 '.repeat(Math.ceil(n / 24)).slice(0, n));
      agree('ERROR [main] x.java:12: failed\n'.repeat(Math.min(n, 4096)));
    }
  });

  it('on a 1 MB single line and an empty input', () => {
    agree('z'.repeat(1 << 20));
    agree('');
  });
});
