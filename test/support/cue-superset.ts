// A class bit that gates a host rule (the preserve cue, the verdict cue) must
// be set on every line the rule matches: checked over every file of the
// repository's fixtures and corpora, and over the shared corpus when present.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { corpusFiles, skipWithoutSharedCorpus } from './corpus.js';

/** Lines of a text some rule matches, and those of them the cue left unset. */
export interface CueCheck {
  readonly matched: number;
  readonly missed: readonly string[];
}

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );

/** The two superset tests of a cue, inside the caller's describe; `name` says which cue. */
export function itCuesEveryMatch(name: string, uncued: (text: string) => CueCheck): void {
  it("cues every line of the repository's fixtures and corpora a rule matches", () => {
    const root = resolve(import.meta.dirname, '..');
    let matched = 0;
    for (const path of [...filesUnder(join(root, 'fixtures')), ...filesUnder(join(root, 'corpus'))]) {
      const found = uncued(readFileSync(path, 'utf8'));
      matched += found.matched;
      expect(found.missed, path).toEqual([]);
    }
    expect(matched).toBeGreaterThan(0);
  });

  it.skipIf(skipWithoutSharedCorpus(`the ${name} over the shared corpus`))(
    'cues every line of the shared corpus a rule matches',
    () => {
      let matched = 0;
      for (const file of corpusFiles()) {
        const found = uncued(file.text);
        matched += found.matched;
        expect(found.missed, file.path).toEqual([]);
      }
      expect(matched).toBeGreaterThan(0);
    },
  );
}
