// Every corpus file survives put -> the SQLite file -> a new store opening it -> get.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createStore, originalId, retrieve } from '../../src/store/index.js';
import { corpusFiles, skipWithoutSharedCorpus } from '../support/corpus.js';

const dir = mkdtempSync(join(tmpdir(), 'squeeze-roundtrip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const noCorpus = skipWithoutSharedCorpus('store round trip over the corpus');

describe.skipIf(noCorpus)('store round trip over the corpus', () => {
  const files = noCorpus ? [] : corpusFiles();

  it('gives back every original, byte for byte, from a reopened store', () => {
    const writer = createStore({ dir });
    const ids = files.map((file) => writer.put(file.text, { type: file.type, tool: file.tool }).id);
    writer.close();
    const reader = createStore({ dir });
    expect(reader.count).toBe(new Set(ids).size);
    files.forEach((file, i) => {
      const lookup = reader.get(ids[i] as string);
      expect(lookup.found, file.name).toBe(true);
      if (!lookup.found) return;
      expect(lookup.entry.id).toBe(originalId(file.text));
      expect(lookup.entry.size).toBe(Buffer.byteLength(file.text));
      expect(Buffer.from(lookup.entry.text).equals(Buffer.from(file.text)), file.name).toBe(true);
    });
    expect(files.length).toBe(99);
  });

  it('line ranges of a reopened original concatenate back to it', () => {
    const reader = createStore({ dir });
    for (const file of files) {
      const id = originalId(file.text);
      const whole = retrieve(reader, { id });
      if (!whole.ok) throw new Error(whole.message);
      const pieces: string[] = [];
      for (let start = 1; start <= whole.totalLines; start += 500) {
        const part = retrieve(reader, { id, range: { start, count: 500 } });
        if (!part.ok) throw new Error(part.message);
        pieces.push(part.text);
      }
      expect(pieces.join('') === file.text, file.name).toBe(true);
    }
  });
});
