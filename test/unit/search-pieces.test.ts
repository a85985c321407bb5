// A line longer than a piece is searched in overlapping pieces: the matches
// are those a whole-line match finds (anchors and word boundaries see the real
// neighbours at a piece's edges), and the deadline and the yields hold inside
// the line. The clock is injected, so slicing is asserted, never timed.
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { compileSearch, runSync, SEARCH_DEADLINE_MS, type SearchPace, searchLines } from '../../src/store/search.js';

/** Pieces of 8 characters repeating 4, never a line whole: every line of the tests below longer than 8 is searched in pieces. */
const TINY: SearchPace = {
  now: () => 0,
  work: () => 0,
  pieceChars: { first: 8, min: 8, max: 8 },
  overlapChars: 4,
  wholeLineMs: 0,
};

/** The matched lines of an answer, without its note on lines searched in pieces. */
const matchedLines = (text: string) =>
  text
    .split('\n')
    .filter((line) => !line.includes('searched in pieces'))
    .join('\n');

function spansOf(lines: string[]) {
  const text = lines.join('\n');
  const start: number[] = [];
  const end: number[] = [];
  let at = 0;
  for (const line of lines) {
    start.push(at);
    end.push(at + line.length);
    at += line.length + 1;
  }
  return { text, start, end };
}

describe('search in pieces', () => {
  it('finds exactly the lines a whole-line match finds, for matches up to the overlap', () => {
    // Each pattern's matches are at most 4 characters long (the overlap).
    const patterns = [
      '^a',
      'b$',
      '\\bab\\b',
      'a\\s?b',
      '[^a]b',
      '^$',
      '\\Ab',
      'a\\z',
      '(?s)a.b',
      '(?m)^b',
      'x*',
      'a|^c$',
      'c\\B',
      '\\Bc',
      'b c',
      'cc$|^aa',
    ];
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[abc ]{0,40}$/), { maxLength: 20 }),
        fc.constantFrom(...patterns),
        fc.boolean(),
        (lines, grep, ignoreCase) => {
          const reference = RE2JS.compile(grep, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
          const expected = lines.flatMap((l, i) => (reference.test(l) ? [`${i + 1}: ${l}`] : []));
          const request = { grep, ignoreCase, maxMatches: 1000 };
          const found = runSync(searchLines(spansOf(lines), 0, lines.length, request, compileSearch(request), TINY));
          expect(matchedLines(found.text)).toBe(expected.join('\n'));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('finds a match across a piece boundary, and an end anchor only at the end of the line', () => {
    const line = `${'a'.repeat(13)}xyz${'b'.repeat(13)}`;
    const search = (grep: string) =>
      runSync(searchLines(spansOf([line]), 0, 1, { grep }, compileSearch({ grep }), TINY)).matches;
    expect(search('axyzb')).toBe(1);
    expect(search('a$')).toBe(0);
    expect(search('b$')).toBe(1);
    expect(search('^b')).toBe(0);
    expect(search('a\\b')).toBe(0);
  });

  it('tests a long line whole when the rate so far says it fits one step, so a long match is found; in pieces it says what it cannot see', () => {
    const line = `ERROR start ${'x'.repeat(6000)} timeout end`;
    const grep = 'ERROR.*timeout';
    // Half a millisecond of work per step of 7-8 characters: the 6,024-character line is predicted at about 400 ms.
    let work = 0;
    const measured = (wholeLineMs: number): SearchPace => ({ ...TINY, work: () => (work += 0.5), wholeLineMs });
    const search = (pace: SearchPace) =>
      runSync(searchLines(spansOf(['short 1', line]), 0, 2, { grep }, compileSearch({ grep }), pace));
    const whole = search(measured(1000));
    expect(whole.matches).toBe(1);
    expect(whole.text).toBe(
      `2: ${line.slice(0, 2000)} [… ${(line.length - 2000).toLocaleString('en-US')} more characters of line 2; range {"start": 2, "count": 1} returns it whole …]`,
    );
    const inPieces = search(measured(100));
    expect(inPieces.matches).toBe(0);
    expect(inPieces.piecedWithoutMatch).toEqual({ lines: 1, first: 1 });
    expect(inPieces.text).toBe(
      '[… 1 line was too slow for this pattern to test whole and was searched in pieces: a match over 4 characters across two pieces is not found there; range {"start": 2, "count": 1} returns line 2 whole …]',
    );
  });

  it('stops at the deadline inside one long line, yielding between pieces, and says how far it got', () => {
    // A clock that moves 1 ms each time it is read: the deadline falls after a
    // fixed number of pieces, whatever the machine.
    let ms = 0;
    const pace: SearchPace = { ...TINY, now: () => ms++, pieceChars: { first: 256, min: 256, max: 256 } };
    const line = 'ab'.repeat(1 << 20);
    const grep = 'x';
    const work = searchLines(spansOf([line]), 0, 1, { grep }, compileSearch({ grep }), pace);
    let yields = 0;
    let step = work.next();
    for (; !step.done; step = work.next()) yields++;
    const found = step.value;
    expect(yields).toBeGreaterThan(10);
    expect(found.stoppedAt).toBe(0);
    expect(found.searched!.of).toBe(line.length);
    expect(found.searched!.chars).toBeGreaterThan(0);
    expect(found.searched!.chars).toBeLessThan(line.length);
    expect(found.searched!.chars % 256).toBe(0);
    expect(found.text).toBe(
      `[… search stopped after ${SEARCH_DEADLINE_MS.toLocaleString('en-US')} ms at character ${(found.searched!.chars + 1).toLocaleString('en-US')} of line 1 (${line.length.toLocaleString('en-US')} characters) of 1; ` +
        `the rest was not searched: ask again with a simpler pattern or as plain text; searched ${found.searched!.chars.toLocaleString('en-US')} of ${line.length.toLocaleString('en-US')} characters …]`,
    );
  });
});
