import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RE2JS } from 're2js';
import {
  createStore,
  MAX_LINE_CHARS,
  MAX_OUTPUT_BYTES,
  MAX_PATTERN_CHARS,
  retrieve,
  retrieveAsync,
  type RetrieveResult,
} from '../../src/store/index.js';

const TEXT = 'zero\r\none ERROR\ntwo\nthree error\nfour\n';

function served(result: RetrieveResult) {
  if (!result.ok) throw new Error(result.message);
  return result;
}

function withText(text = TEXT) {
  const store = createStore();
  const { id } = store.put(text, { type: 'file' });
  return { store, id };
}

describe('retrieve', () => {
  it('serves the whole original byte for byte', () => {
    const { store, id } = withText();
    const result = served(retrieve(store, { id }));
    expect(result.text).toBe(TEXT);
    expect(result).toMatchObject({
      type: 'file',
      size: Buffer.byteLength(TEXT),
      totalLines: 5,
      lines: { start: 1, count: 5 },
    });
  });

  it('serves a 1-based line range with its exact bytes; ranges concatenate to the original', () => {
    const { store, id } = withText();
    expect(served(retrieve(store, { id, range: { start: 1, count: 2 } })).text).toBe('zero\r\none ERROR\n');
    expect(served(retrieve(store, { id, range: { start: 4 } })).text).toBe('three error\nfour\n');
    const pieces = [1, 3, 5].map((start) => served(retrieve(store, { id, range: { start, count: 2 } })).text);
    expect(pieces.join('')).toBe(TEXT);
  });

  it('returns exactly the lines an omission marker names (1-based, inclusive)', () => {
    const text = Array.from({ length: 600 }, (_, i) => `line ${i + 1}\n`).join('');
    const { store, id } = withText(text);
    // [… lines 120–480 (361) …]
    const result = served(retrieve(store, { id, range: { start: 120, count: 361 } }));
    const lines = result.text.split('\n').slice(0, -1);
    expect(lines).toHaveLength(361);
    expect(lines[0]).toBe('line 120');
    expect(lines.at(-1)).toBe('line 480');
    expect(result.lines).toEqual({ start: 120, count: 361 });
  });

  it('refuses a start below 1 or a negative count instead of moving it; a start past the end gives nothing', () => {
    const { store, id } = withText();
    const past = served(retrieve(store, { id, range: { start: 99, count: 5 } }));
    expect(past.text).toBe('');
    expect(past.lines).toEqual({ start: 6, count: 0 });
    for (const range of [{ start: 0 }, { start: -3, count: 1 }, { start: 1.5 }, { start: 1, count: -2 }]) {
      const refused = retrieve(store, { id, range });
      expect(refused).toMatchObject({ ok: false, reason: 'bad-range' });
      expect(!refused.ok && refused.message).toMatch(/numbered from 1|number of lines/);
    }
    expect(served(retrieve(store, { id, range: { start: 5, count: 1000 } })).text).toBe('four\n');
    expect(served(retrieve(store, { id, range: { start: 2, count: 0 } })).text).toBe('');
  });

  it('handles a text without a final newline and the empty text', () => {
    const { store, id } = withText('a\nb');
    expect(served(retrieve(store, { id, range: { start: 2, count: 1 } })).text).toBe('b');
    const empty = withText('');
    expect(served(retrieve(empty.store, { id: empty.id })).totalLines).toBe(0);
    expect(served(retrieve(empty.store, { id: empty.id, range: { start: 1, count: 3 } })).text).toBe('');
  });

  it('takes the id in any case or inside a pasted marker or notice line; input naming no id is a bad-id miss', () => {
    const { store, id } = withText();
    for (const given of [
      id.toUpperCase(),
      ` ${id}\n`,
      `<<<CCR:${id}|file|37>>>`,
      `[original: ccr_retrieve {"hash":"${id}"} (+ "range":{"start":N,"count":N})]`,
    ]) {
      expect(served(retrieve(store, { id: given })).text).toBe(TEXT);
    }
    for (const given of [id.slice(1), `${id}0`, 'hello', `${id} ${'b'.repeat(24)}`]) {
      const refused = retrieve(store, { id: given });
      expect(refused).toMatchObject({ ok: false, reason: 'bad-id' });
      expect(!refused.ok && refused.message).toMatch(/an id is the 24 hex characters after "<<<CCR:"/);
      expect(!refused.ok && refused.message).not.toMatch(/re-run/i);
    }
  });

  it('pages: whole lines under maxBytes, the range of the rest, and pages that concatenate to the original', () => {
    const text = Array.from({ length: 5000 }, (_, i) => `row ${i + 1} ${'x'.repeat(i % 37)}\n`).join('');
    const { store, id } = withText(text);
    const pieces: string[] = [];
    let range: { start: number; count?: number } | undefined = { start: 1 };
    let pages = 0;
    while (range !== undefined) {
      const page = served(retrieve(store, { id, range, maxBytes: 10_000 }));
      expect(Buffer.byteLength(page.text)).toBeLessThanOrEqual(10_000);
      expect(page.text.endsWith('\n')).toBe(true);
      expect(page.lines.start).toBe(range.start);
      pieces.push(page.text);
      range = page.next;
      if (range) expect(range.start + range.count! - 1).toBe(5000);
      pages++;
    }
    expect(pieces.join('')).toBe(text);
    expect(pages).toBeGreaterThanOrEqual(Math.ceil(Buffer.byteLength(text) / 10_000));
    // Within a range: the rest of that range only.
    const part = served(retrieve(store, { id, range: { start: 100, count: 1000 }, maxBytes: 5_000 }));
    expect(part.next!.start + part.next!.count).toBe(1100);
    // A range that fits is whole, with no next.
    expect(served(retrieve(store, { id, range: { start: 3, count: 2 }, maxBytes: 5_000 }))).not.toHaveProperty('next');
  });

  it('pages a line longer than a page as its head, in whole characters, and names what is missing', () => {
    const { store, id } = withText(`${'é'.repeat(3000)}\nshort\n`);
    const page = served(retrieve(store, { id, maxBytes: 1001 }));
    expect(page.text).toBe('é'.repeat(500));
    expect(page.cutLine).toEqual({ shownBytes: 1000, bytes: 6001 });
    expect(page.next).toEqual({ start: 2, count: 1 });
  });

  it('greps lines with their 1-based numbers, within the range when given', () => {
    const { store, id } = withText();
    const all = served(retrieve(store, { id, grep: 'error', ignoreCase: true }));
    expect(all.text).toBe('2: one ERROR\n4: three error');
    expect(all.matches).toBe(2);
    expect(served(retrieve(store, { id, grep: 'error' })).text).toBe('4: three error');
    expect(served(retrieve(store, { id, grep: '^t', range: { start: 3, count: 1 } })).text).toBe('3: two');
    const none = served(retrieve(store, { id, grep: 'absent' }));
    expect(none).toMatchObject({ text: '', matches: 0 });
  });

  it('caps matches with an exact count of the rest', () => {
    const lines = Array.from({ length: 1250 }, (_, i) => `row ${i}`).join('\n');
    const { store, id } = withText(lines);
    const capped = served(retrieve(store, { id, grep: 'row', maxMatches: 3 }));
    expect(capped.text).toBe('1: row 0\n2: row 1\n3: row 2\n[… 1,247 more matches …]');
    expect(capped.matches).toBe(1250);
    expect(served(retrieve(store, { id, grep: 'row 12[0-4]$', maxMatches: 4 })).text).toMatch(/\[… 1 more match …\]$/);
  });

  it('reports an invalid pattern clearly and matches literally on request', () => {
    const { store, id } = withText('a (b\nc [d]\n');
    const bad = retrieve(store, { id, grep: '(b' });
    expect(bad).toMatchObject({ ok: false, reason: 'bad-pattern' });
    expect(!bad.ok && bad.message).toMatch(/Invalid grep pattern: missing closing \): "\(b".*literal/);
    expect(served(retrieve(store, { id, grep: '(b', literal: true })).text).toBe('1: a (b');
    expect(served(retrieve(store, { id, grep: '[d]', literal: true })).text).toBe('2: c [d]');
  });

  it('explains a miss and tells the reader to re-run the tool', () => {
    let t = 0;
    const store = createStore({ ttlSeconds: 1, now: () => t });
    const { id } = store.put('soon gone', { type: 'default' });
    t = 1000;
    const expired = retrieve(store, { id });
    expect(expired).toMatchObject({ ok: false, reason: 'expired' });
    expect(!expired.ok && expired.message).toMatch(/expired.*Re-run the original tool/);
    const unknown = retrieve(store, { id: 'a'.repeat(24) });
    expect(unknown).toMatchObject({ ok: false, reason: 'unknown' });
    expect(!unknown.ok && unknown.message).toMatch(
      /never stored in this store or it was evicted\. Re-run the original tool/,
    );
    const malformed = retrieve(store, { id: 'not-an-id' });
    expect(malformed).toMatchObject({ ok: false, reason: 'bad-id' });
  });
});

describe('safe grep', () => {
  const aBang = `${'a'.repeat(100_000)}!`;

  it('answers the catastrophic patterns of backtracking engines, with the right lines', () => {
    const { store, id } = withText(`first\n${aBang}\nword word word: here\n${'alpha beta '.repeat(5000)}\n`);
    // No line matches; whether the 100,000-character line was tested whole or in pieces depends on the
    // pace measured on this machine, and in pieces the answer says so.
    const none = served(retrieve(store, { id, grep: '(a+)+$' }));
    expect(none).toMatchObject({ matches: 0 });
    expect(none.text).toMatch(
      /^(?:|\[… 1 line was too slow for this pattern to test whole .* returns line 2 whole …\])$/,
    );
    expect(served(retrieve(store, { id, grep: '(a+)+!$' }))).toMatchObject({ matches: 1 });
    const words = served(retrieve(store, { id, grep: '(\\w+\\s?)+:' }));
    expect(words).toMatchObject({ matches: 1, text: '3: word word word: here' });
  });

  it('refuses a pattern over the length cap without echoing it', () => {
    const { store, id } = withText();
    const long = 'x'.repeat(32 * 1024);
    const result = retrieve(store, { id, grep: long });
    expect(result).toMatchObject({ ok: false, reason: 'bad-pattern' });
    const message = !result.ok ? result.message : '';
    expect(message).toContain(`limit is ${MAX_PATTERN_CHARS.toLocaleString('en-US')}`);
    expect(message.length).toBeLessThan(400);
    expect(retrieve(store, { id, grep: long, literal: true })).toMatchObject({ ok: false, reason: 'bad-pattern' });
  });

  it('names what RE2 lacks (backreferences, lookaround) and says what to do', () => {
    const { store, id } = withText();
    for (const [grep, says] of [
      ['(o)\\1', /backreferences/],
      ['one(?= ERROR)', /lookahead/],
      ['(?<!t)wo', /lookbehind/],
    ] as const) {
      const result = retrieve(store, { id, grep });
      expect(result).toMatchObject({ ok: false, reason: 'bad-pattern' });
      expect(!result.ok && result.message).toMatch(says);
      expect(!result.ok && result.message).toMatch(/"literal": true.*--literal/);
    }
    const bad = retrieve(store, { id, grep: `(${'y'.repeat(900)}` });
    expect(!bad.ok && bad.message.length).toBeLessThan(400);
  });

  it('treats CR-only line endings as lines, as the kernels do', () => {
    const { store, id } = withText('one\rtwo ERROR\r\nthree\rfour');
    expect(served(retrieve(store, { id, grep: 'ERROR$' })).text).toBe('2: two ERROR');
    expect(served(retrieve(store, { id, range: { start: 3, count: 1 } })).text).toBe('three\r');
    expect(served(retrieve(store, { id })).totalLines).toBe(4);
  });

  it('cuts a huge matching line and caps the shown bytes, counting every match', () => {
    const huge = 'E'.repeat(MAX_LINE_CHARS * 3);
    const { store, id } = withText(`${huge}\n`.repeat(40));
    const result = served(retrieve(store, { id, grep: 'E' }));
    expect(result.matches).toBe(40);
    const shown = result.text.split('\n');
    expect(shown[0]).toBe(
      `1: ${'E'.repeat(MAX_LINE_CHARS)} [… ${(MAX_LINE_CHARS * 2).toLocaleString('en-US')} more characters of line 1; range {"start": 1, "count": 1} returns it whole …]`,
    );
    expect(Buffer.byteLength(result.text)).toBeLessThan(MAX_OUTPUT_BYTES + 200);
    expect(shown.at(-1)).toMatch(/^\[… \d+ more matches \(the shown lines reached/);
  });

  it('matches literally with RE2 metacharacters and case folding', () => {
    const { store, id } = withText('a.b*c\naxbbc\nA.B*C\n');
    expect(served(retrieve(store, { id, grep: 'a.b*c', literal: true })).text).toBe('1: a.b*c');
    expect(served(retrieve(store, { id, grep: 'a.b*c', literal: true, ignoreCase: true })).text).toBe(
      '1: a.b*c\n3: A.B*C',
    );
  });

  it('finds exactly the lines a line-by-line match finds (blocks are only a shortcut)', async () => {
    const patterns = [
      '^a',
      'b$',
      '\\bab\\b',
      'a\\s+b',
      '[^a]b',
      '^$',
      '\\Ab',
      'a\\z',
      '(?s)a.b',
      '(?m)^b',
      'x*',
      'a|^c$',
    ];
    const line = fc.stringMatching(/^[abc ]{0,6}$/);
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { maxLength: 300 }),
        fc.constantFrom(...patterns),
        fc.constantFrom('\n', '\r\n', '\r'),
        async (lines, grep, eol) => {
          const text = lines.join(eol);
          const { store, id } = withText(text);
          const reference = RE2JS.compile(grep);
          // A final break does not start a line.
          const own = text === '' ? [] : text.split(/\r\n?|\n/);
          if (/[\r\n]$/.test(text)) own.pop();
          const expected = own.flatMap((l, i) => (reference.test(l) ? [`${i + 1}: ${l}`] : []));
          const result = served(await retrieveAsync(store, { id, grep, maxMatches: 1000 }));
          expect(result.text).toBe(expected.join('\n'));
          expect(result.matches).toBe(expected.length);
        },
      ),
      { numRuns: 150 },
    );
  });
});
