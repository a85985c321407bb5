import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RE2JS } from 're2js';
import {
  createStore, MAX_LINE_CHARS, MAX_OUTPUT_BYTES, MAX_PATTERN_CHARS, retrieve, retrieveAsync, type RetrieveResult,
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
    expect(result).toMatchObject({ type: 'file', size: Buffer.byteLength(TEXT), totalLines: 5, lines: { start: 0, count: 5 } });
  });

  it('serves a 0-based line range with its exact bytes; ranges concatenate to the original', () => {
    const { store, id } = withText();
    expect(served(retrieve(store, { id, range: { start: 0, count: 2 } })).text).toBe('zero\r\none ERROR\n');
    expect(served(retrieve(store, { id, range: { start: 3 } })).text).toBe('three error\nfour\n');
    const pieces = [0, 2, 4].map((start) => served(retrieve(store, { id, range: { start, count: 2 } })).text);
    expect(pieces.join('')).toBe(TEXT);
  });

  it('clamps ranges instead of failing', () => {
    const { store, id } = withText();
    const past = served(retrieve(store, { id, range: { start: 99, count: 5 } }));
    expect(past.text).toBe('');
    expect(past.lines).toEqual({ start: 5, count: 0 });
    expect(served(retrieve(store, { id, range: { start: -3, count: 1 } })).text).toBe('zero\r\n');
    expect(served(retrieve(store, { id, range: { start: 4, count: 1000 } })).text).toBe('four\n');
    expect(served(retrieve(store, { id, range: { start: 1, count: -2 } })).text).toBe('');
  });

  it('handles a text without a final newline and the empty text', () => {
    const { store, id } = withText('a\nb');
    expect(served(retrieve(store, { id, range: { start: 1, count: 1 } })).text).toBe('b');
    const empty = withText('');
    expect(served(retrieve(empty.store, { id: empty.id })).totalLines).toBe(0);
    expect(served(retrieve(empty.store, { id: empty.id, range: { start: 0, count: 3 } })).text).toBe('');
  });

  it('greps lines with their 1-based numbers, within the range when given', () => {
    const { store, id } = withText();
    const all = served(retrieve(store, { id, grep: 'error', ignoreCase: true }));
    expect(all.text).toBe('2: one ERROR\n4: three error');
    expect(all.matches).toBe(2);
    expect(served(retrieve(store, { id, grep: 'error' })).text).toBe('4: three error');
    expect(served(retrieve(store, { id, grep: '^t', range: { start: 2, count: 1 } })).text).toBe('3: two');
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
    expect(!unknown.ok && unknown.message).toMatch(/never stored here or it was evicted\. Re-run the original tool/);
    const malformed = retrieve(store, { id: 'not-an-id' });
    expect(!malformed.ok && malformed.message).toMatch(/24 lowercase hex/);
  });
});

describe('safe grep', () => {
  const aBang = `${'a'.repeat(100_000)}!`;

  it('answers the catastrophic patterns of backtracking engines, with the right lines', () => {
    const { store, id } = withText(`first\n${aBang}\nword word word: here\n${'alpha beta '.repeat(5000)}\n`);
    expect(served(retrieve(store, { id, grep: '(a+)+$' }))).toMatchObject({ matches: 0, text: '' });
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
    for (const [grep, says] of [['(o)\\1', /backreferences/], ['one(?= ERROR)', /lookahead/], ['(?<!t)wo', /lookbehind/]] as const) {
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
    expect(served(retrieve(store, { id, range: { start: 2, count: 1 } })).text).toBe('three\r');
    expect(served(retrieve(store, { id })).totalLines).toBe(4);
  });

  it('cuts a huge matching line and caps the shown bytes, counting every match', () => {
    const huge = 'E'.repeat(MAX_LINE_CHARS * 3);
    const { store, id } = withText(`${huge}\n`.repeat(40));
    const result = served(retrieve(store, { id, grep: 'E' }));
    expect(result.matches).toBe(40);
    const shown = result.text.split('\n');
    expect(shown[0]).toBe(`1: ${'E'.repeat(MAX_LINE_CHARS)} [… ${(MAX_LINE_CHARS * 2).toLocaleString('en-US')} more characters of line 1; range {"start": 0, "count": 1} returns it whole …]`);
    expect(Buffer.byteLength(result.text)).toBeLessThan(MAX_OUTPUT_BYTES + 200);
    expect(shown.at(-1)).toMatch(/^\[… \d+ more matches \(the shown lines reached/);
  });

  it('matches literally with RE2 metacharacters and case folding', () => {
    const { store, id } = withText('a.b*c\naxbbc\nA.B*C\n');
    expect(served(retrieve(store, { id, grep: 'a.b*c', literal: true })).text).toBe('1: a.b*c');
    expect(served(retrieve(store, { id, grep: 'a.b*c', literal: true, ignoreCase: true })).text).toBe('1: a.b*c\n3: A.B*C');
  });

  it('finds exactly the lines a line-by-line match finds (blocks are only a shortcut)', async () => {
    const patterns = ['^a', 'b$', '\\bab\\b', 'a\\s+b', '[^a]b', '^$', '\\Ab', 'a\\z', '(?s)a.b', '(?m)^b', 'x*', 'a|^c$'];
    const line = fc.stringMatching(/^[abc ]{0,6}$/);
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 300 }), fc.constantFrom(...patterns), fc.constantFrom('\n', '\r\n', '\r'), async (lines, grep, eol) => {
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
      }),
      { numRuns: 150 },
    );
  });
});
