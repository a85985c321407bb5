// `squeeze compress`: the pipeline from the command line, and every original
// back through `squeeze retrieve`.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqueeze } from '../../src/pipeline/index.js';
import { runCli, spawnCli } from '../support/cli.js';
import { corpusFiles, skipWithoutSharedCorpus } from '../support/corpus.js';

const root = mkdtempSync(join(tmpdir(), 'squeeze-cli-compress-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('squeeze compress', () => {
  const log = Array.from({ length: 3000 }, (_, i) =>
    i % 500 === 7
      ? `2026-11-30 09:00:${String(i % 60).padStart(2, '0')} ERROR worker ${i}: connection refused (db:5432)`
      : `2026-11-30 09:00:${String(i % 60).padStart(2, '0')} INFO request ${i % 17} served in ${i % 9} ms`,
  ).join('\n');

  it('answers a text below the activation threshold as the pipeline does, without opening the store', async () => {
    // A store path that cannot be a folder: opening it would fail the call.
    const store = join(root, 'not-a-folder');
    writeFileSync(store, 'a file');
    for (const [text, args] of [
      ['PASS test/unit/a.test.ts (12 tests)\n', ['--tool', 'bash']],
      ['', []],
      [log.slice(0, 600), ['--max-tokens', '800', '--kind', 'log']],
    ] as const) {
      const result = await runCli(['compress', '--json', '--store', store, ...args], { stdin: text });
      expect(result.code, result.stderr.toString()).toBe(0);
      const { ms, stored, ...shown } = JSON.parse(result.stdout.toString());
      const maxTokens = args[1] === '800' ? { maxTokens: 800, targetTokens: 800, minTokens: 500 } : {};
      const {
        ms: _ms,
        error: _error,
        ...expected
      } = createSqueeze(maxTokens).compress(text, {
        toolName: args[0] === '--tool' ? 'bash' : undefined,
      });
      expect(shown).toEqual(expected);
      expect(shown.outcome).toBe('below-min-tokens');
      expect(stored).toBe(false);
      expect(typeof ms).toBe('number');
    }
  });

  it('compresses stdin and gives the original back through retrieve in another process', async () => {
    const store = join(root, 'compress-store');
    const result = await spawnCli(['compress', '--json', '--store', store, '--tool', 'bash'], { stdin: log });
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout.toString());
    for (const key of [
      'output',
      'id',
      'outcome',
      'kind',
      'level',
      'tokensIn',
      'tokensOut',
      'bytesIn',
      'bytesOut',
      'backend',
      'ms',
    ]) {
      expect(json, key).toHaveProperty(key);
    }
    expect(json.outcome).toBe('compressed');
    expect(json.bytesIn).toBe(Buffer.byteLength(log));
    expect(json.tokensOut).toBeLessThan(json.tokensIn);
    expect(json.output).toContain(`<<<CCR:${json.id}|`);
    const back = await spawnCli(['retrieve', json.id, '--store', store]);
    expect(back.code).toBe(0);
    expect(back.stdout.equals(Buffer.from(log))).toBe(true);
    // The spans as data: 1-based, in the original's numbering, each the lines its marker names.
    expect(json.omissions.length).toBeGreaterThan(0);
    const lines = log.split('\n');
    for (const { start, count } of json.omissions as { start: number; count: number }[]) {
      expect(json.output).toContain(
        `[… lines ${start.toLocaleString('en-US')}–${(start + count - 1).toLocaleString('en-US')} (${count.toLocaleString('en-US')})`,
      );
      expect(lines.slice(start - 1, start - 1 + count).some((line) => json.output.split('\n').includes(line))).toBe(
        false,
      );
    }
  });

  it('prints the output on stdout and a notice on stderr', async () => {
    const store = join(root, 'compress-plain');
    const file = join(root, 'build.log');
    writeFileSync(file, log);
    const result = await runCli(['compress', file, '--store', store, '--level', 'aggressive']);
    expect(result.code).toBe(0);
    const id = /<<<CCR:([0-9a-f]{24})\|/.exec(result.stdout.toString())?.[1];
    expect(id).toBeDefined();
    expect(result.stderr).toBe(`${result.stderr.split('\n')[0]}\n`);
    expect(result.stderr).toContain(`squeeze retrieve ${id}`);
    expect((await runCli(['retrieve', id as string, '--store', store])).stdout.toString()).toBe(log);
  });

  it('ends the compressed text and its notice with a line break, so the stderr notice starts its own line', async () => {
    const store = join(root, 'compress-newline');
    const result = await runCli(['compress', '--store', store, '--tool', 'bash'], { stdin: log });
    expect(result.code).toBe(0);
    const out = result.stdout.toString();
    expect(out.endsWith('\n')).toBe(true);
    const lines = out.split('\n');
    const marker = lines.findIndex((line) => line.startsWith('<<<CCR:'));
    expect(marker).toBeGreaterThan(0);
    expect(lines[marker - 1]).not.toBe('');
    // The one way back a shell has, with the store it was kept in; no tool a shell cannot call.
    expect(lines[marker + 1]).toMatch(
      new RegExp(
        `^\\[original: squeeze retrieve [0-9a-f]{24} --store ${store} \\[--start N --count N\\] \\[--grep P\\]\\]$`,
      ),
    );
    expect(out).not.toContain('ccr_retrieve');
    const json = JSON.parse(
      (await runCli(['compress', '--json', '--store', store, '--tool', 'bash'], { stdin: log })).stdout.toString(),
    );
    expect(json.output.endsWith('\n')).toBe(true);
    // A pass-through that ends mid-line: its exact bytes, and the notice on a line of its own.
    const small = await runCli(['compress', '--store', store], { stdin: 'no newline' });
    expect(small.stdout.toString()).toBe('no newline');
    expect(small.stderr.startsWith('\nsqueeze: passed through unchanged')).toBe(true);
  });

  it('passes the text through for a :memory: store, which is gone when the command exits (exit 6, stored: false)', async () => {
    const plain = await runCli(['compress', '--store', ':memory:', '--tool', 'bash'], { stdin: log });
    expect(plain.code).toBe(6);
    // No cut markers pointing at an original that is gone: the text whole.
    expect(plain.stdout.toString()).toBe(log);
    expect(plain.stderr).toMatch(
      /could not be stored \(a :memory: store lasts only while this command runs\); passed through unchanged/,
    );
    const json = await runCli(['compress', '--json', '--store', ':memory:', '--tool', 'bash'], { stdin: log });
    expect(json.code).toBe(6);
    expect(JSON.parse(json.stdout.toString())).toMatchObject({
      id: null,
      stored: false,
      outcome: 'not-stored',
      output: log,
    });
  });

  it('passes a small input through unchanged', async () => {
    const result = await runCli(['compress', '--store', join(root, 'small')], { stdin: 'tiny output\n' });
    expect(result.code).toBe(0);
    expect(result.stdout.toString()).toBe('tiny output\n');
    expect(result.stderr).toMatch(/passed through unchanged/);
  });

  it('compresses a log that is not all UTF-8, says so in one line, and retrieves its exact bytes', async () => {
    // A real compiler log with a Latin-1 path byte (0xe9) in one line and a sequence cut short at the end.
    const real = readFileSync(join(import.meta.dirname, '../fixtures/logs/gcc-many.log'));
    const at = real.indexOf('\n', real.length >> 1) + 1;
    const bytes = Buffer.concat([
      real.subarray(0, at),
      Buffer.from('In file included from src/r\u00e9seau.h:3:\n', 'latin1'),
      real.subarray(at),
      Buffer.from([0xe2, 0x82, 0x0a]),
    ]);
    const store = join(root, 'not-utf8');
    const plain = await spawnCli(['compress', '--store', store, '--tool', 'bash'], { stdin: bytes });
    expect(plain.code).toBe(0);
    const shown = plain.stdout.toString('utf8');
    expect(shown).toContain('In file included from src/r\uFFFDseau.h:3:');
    expect(shown.split('\n').at(-2)).toBe(
      '[not UTF-8: 2 byte sequences shown as U+FFFD; the stored original keeps the exact bytes]',
    );
    const id = /squeeze retrieve ([0-9a-f]{24})/.exec(plain.stderr)![1]!;
    const back = await spawnCli(['retrieve', id, '--store', store]);
    expect(back.code).toBe(0);
    expect(back.stdout.equals(bytes)).toBe(true);
    const json = JSON.parse(
      (await runCli(['compress', '--json', '--store', store], { stdin: bytes })).stdout.toString(),
    );
    expect(json).toMatchObject({ outcome: 'compressed', id, stored: true });
    expect(json.output).toMatch(/\n\[not UTF-8: 2 byte sequences shown as U\+FFFD; [^\n]*\]\n$/);
    expect(json.tokensOut).toBeLessThanOrEqual(12_000);
  });

  it('passes bytes that are not UTF-8 and are not compressed through exact, and refuses them under --json', async () => {
    // Ending mid-line, the bytes stay exact and the notice starts a line of its own.
    const midLine = Buffer.from([0xff, 0xfe, 0x20, 0x61, 0x62, 0x63]);
    const cut = await runCli(['compress', '--store', join(root, 'binary')], { stdin: midLine });
    expect(cut.code).toBe(0);
    expect(cut.stdout.equals(midLine)).toBe(true);
    expect(cut.stderr).toMatch(
      /^\nsqueeze compress: .* is not valid UTF-8; passed through unchanged \(below-min-tokens\)/,
    );
    const json = await runCli(['compress', '--json', '--store', join(root, 'binary')], { stdin: midLine });
    expect(json.code).toBe(5);
    expect(json.stdout.length).toBe(0);
  });

  it('rejects bad option values with exit 2', async () => {
    for (const args of [
      ['--kind', 'xml'],
      ['--level', 'max'],
      ['--target-tokens', '0'],
      ['--target-tokens', 'many'],
      ['a', 'b'],
    ]) {
      const result = await runCli(['compress', ...args], { stdin: log });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(/^squeeze compress: /);
    }
  });
});

describe.skipIf(skipWithoutSharedCorpus('squeeze compress -> retrieve over the corpus'))(
  'squeeze compress -> retrieve over the corpus',
  () => {
    it('gives back every original byte for byte, or passes it through unchanged', async () => {
      let stored = 0;
      for (const file of corpusFiles()) {
        const store = join(root, 'corpus', file.folder, file.name);
        const bytes = readFileSync(file.path);
        const result = await runCli(['compress', '-', '--json', '--store', store, '--tool', file.tool], {
          stdin: bytes,
        });
        expect(result.code, file.name).toBe(0);
        const json = JSON.parse(result.stdout.toString());
        if (json.id === null) {
          expect(json.output === file.text, file.name).toBe(true);
          continue;
        }
        stored++;
        const back = await runCli(['retrieve', json.id, '--store', store]);
        expect(back.code, file.name).toBe(0);
        expect(back.stdout.equals(bytes), file.name).toBe(true);
      }
      expect(stored).toBeGreaterThan(50);
    }, 600_000);
  },
);
