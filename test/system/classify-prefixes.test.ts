// The classifier looks at a word's keywords only when its first two letters
// are in PREFIXES and, for words of three letters or more, its first three in
// PREFIXES3 (assembly/classify.ts): a keyword whose prefix is missing would
// never match, silently. This reads every keyword the kernel and its twin
// compare a word against and checks that the tables admit it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const KERNEL = readFileSync(new URL('../../assembly/classify.ts', import.meta.url), 'utf8');
const TWIN = readFileSync(new URL('../../src/engine/twin/classify.ts', import.meta.url), 'utf8');

/** The words of a prefix table string constant (possibly concatenated over lines). */
function table(source: string, name: string): Set<string> {
  const declaration = new RegExp(`const ${name} =([^;]*);`).exec(source);
  if (!declaration) throw new Error(`${name} not found`);
  const text = [...declaration[1]!.matchAll(/'([^']*)'/g)].map((m) => m[1]).join('');
  return new Set(text.split(' ').filter(Boolean));
}

/** Body of the top-level function `name` (up to the first closing brace in column 0). */
function body(source: string, name: string): string {
  const start = source.indexOf(`function ${name}(`);
  if (start < 0) throw new Error(`function ${name} not found`);
  return source.slice(start, source.indexOf('\n}\n', start));
}

/**
 * The keywords a gated word is compared against: `eqi(word, len, 'kw')` and
 * `startsWith(word, e, 'Kw ...')` at the word's start, in the functions only
 * reached through the prefix filter (levelWord, segmentFlags, word).
 */
function keywords(source: string): Set<string> {
  const found = new Set<string>();
  for (const name of ['levelWord', 'segmentFlags', 'word']) {
    const text = body(source, name);
    for (const m of text.matchAll(/\b(?:eqi|startsWith)\((a|ws), [a-z]+, '([^']*)'\)/g)) {
      const first = /^[A-Za-z]+/.exec(m[2]!)?.[0];
      if (first) found.add(first.toLowerCase());
    }
  }
  return found;
}

const PREFIXES = table(KERNEL, 'PREFIXES');
const PREFIXES3 = table(KERNEL, 'PREFIXES3');

describe('classifier keyword prefixes', () => {
  it('reads the tables and the keywords of both the kernel and the twin', () => {
    expect(PREFIXES.size).toBeGreaterThan(20);
    expect(PREFIXES3.size).toBeGreaterThan(30);
    for (const source of [KERNEL, TWIN]) {
      const words = keywords(source);
      for (const known of ['error', 'warning', 'traceback', 'goroutine', 'severity', 'segfault']) {
        expect(words).toContain(known);
      }
    }
  });

  it("the twin keeps the kernel's two-letter table", () => {
    expect(table(TWIN, 'PREFIXES')).toEqual(PREFIXES);
  });

  for (const [file, source] of [
    ['assembly/classify.ts', KERNEL],
    ['src/engine/twin/classify.ts', TWIN],
  ] as const) {
    it(`every keyword of ${file} passes the prefix filter`, () => {
      const missing = [...keywords(source)].filter(
        (word) => !PREFIXES.has(word.slice(0, 2)) || (word.length >= 3 && !PREFIXES3.has(word.slice(0, 3))),
      );
      expect(missing).toEqual([]);
    });
  }
});

describe('verdict word lengths', () => {
  it("the twin keeps the kernel's verdict words", () => {
    expect(table(TWIN, 'VERDICT_WORDS')).toEqual(table(KERNEL, 'VERDICT_WORDS'));
  });

  it("every word the kernel's and the twin's verdictWord cue passes the kernel's length filter", () => {
    const filter = table(KERNEL, 'VERDICT_WORDS');
    for (const source of [KERNEL, TWIN]) {
      const cued = [...body(source, 'verdictWord').matchAll(/\bexactly\(ws, len, '([^']*)'\)/g)].map((m) => m[1]!);
      expect(cued.length).toBeGreaterThan(40);
      // The filter stands for a word by its first unit and its length.
      const admitted = new Set([...filter].map((word) => `${word[0]}${word.length}`));
      expect(cued.filter((word) => !admitted.has(`${word[0]}${word.length}`))).toEqual([]);
    }
  });
});
