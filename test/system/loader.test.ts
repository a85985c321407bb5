// Embedding proof: examples/assemblyscript-loader.mjs loads build/squeeze.wasm
// with @assemblyscript/loader; its lines must be the Node engine's, on both backends.
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBackend, TextAnalysis, type Backend } from '../../src/engine/index.js';
import { corpusFiles, skipWithoutSharedCorpus } from '../support/corpus.js';

const EXAMPLE = resolve(import.meta.dirname, '../../examples/assemblyscript-loader.mjs');
const BUILT_IN_SAMPLE = 'build started\r\nerror: missing ;\r\n错误 😀\nlast line without newline';

function runExample(...args: string[]): { count: number; lines: string[] } {
  const stdout = execFileSync(process.execPath, [EXAMPLE, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return JSON.parse(stdout);
}

function engineLines(text: string, backend: Backend): { count: number; lines: string[] } {
  const a = new TextAnalysis(text, backend);
  return { count: a.lines.count, lines: Array.from({ length: a.lines.count }, (_, i) => a.line(i)) };
}

const backends = [createBackend('wasm'), createBackend('js')];

describe('examples/assemblyscript-loader.mjs', () => {
  it('splits its built-in sample (CRLF, CJK, an emoji, no final newline) like the engine', () => {
    const out = runExample();
    expect(out.lines).toEqual(['build started', 'error: missing ;', '错误 😀', 'last line without newline']);
    for (const backend of backends) expect(out).toEqual(engineLines(BUILT_IN_SAMPLE, backend));
  });

  const noCorpus = skipWithoutSharedCorpus('the loader example on one corpus file per folder');
  describe.skipIf(noCorpus)('on the corpus', () => {
    const onePerFolder = [...new Map((noCorpus ? [] : corpusFiles()).map((f) => [f.folder, f])).values()];
    it.each(onePerFolder.map((f) => [`${f.folder}/${f.name}`, f]))('splits corpus %s like the engine', (_, file) => {
      const { path, text } = file as { path: string; text: string };
      const out = runExample(path);
      expect(out.count).toBeGreaterThan(0);
      for (const backend of backends) expect(out).toEqual(engineLines(text, backend));
    });
  });
});
