// The `squeeze` command: help, exit codes, stdin, and retrieval from a store
// written by another process.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createStore } from '../../src/store/index.js';
import { runCli, spawnCli } from '../support/cli.js';

const root = mkdtempSync(join(tmpdir(), 'squeeze-cli-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const cache = join(root, 'cache');
const env = { XDG_CACHE_HOME: cache };
const defaultDir = join(cache, 'squeeze');

const ORIGINAL = '\ufeffstart 日本語 ✓\r\nline two\nERROR three\nfour: error four\nno newline at the end';

function stored(text: string, dir = defaultDir, now?: () => number) {
  const store = createStore({ dir, ...(now ? { now } : {}) });
  try {
    return store.put(text, { type: 'file' }).id;
  } finally {
    store.close();
  }
}

describe('squeeze (child process)', () => {
  it('prints help on stdout and exits 0', async () => {
    const top = await spawnCli(['--help']);
    expect(top.code).toBe(0);
    expect(top.stdout.toString()).toMatch(/Usage: squeeze <command>[\s\S]*retrieve[\s\S]*Exit status/);
    const sub = await spawnCli(['retrieve', '--help']);
    expect(sub.code).toBe(0);
    expect(sub.stdout.toString()).toMatch(/^Usage: squeeze retrieve ID/);
  });

  it('returns the original bytes exactly, stored by another process', async () => {
    const id = stored(ORIGINAL);
    const result = await spawnCli(['retrieve', id], { env });
    expect(result.code).toBe(0);
    expect(result.stdout.equals(Buffer.from(ORIGINAL, 'utf8'))).toBe(true);
    expect(result.stderr).toBe('');
  });

  it('exits 3 for an unknown id with the re-run advice and no stack trace', async () => {
    const result = await spawnCli(['retrieve', '0123456789abcdef01234567'], { env });
    expect(result.code).toBe(3);
    expect(result.stdout.length).toBe(0);
    expect(result.stderr).toMatch(
      /^squeeze retrieve: No original is stored under 0123456789abcdef01234567.*Re-run the original tool/,
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('names the allowed range of a number option, and 0 is refused where the minimum is 1', async () => {
    for (const [args, message] of [
      [
        ['retrieve', '0123456789abcdef01234567', '--count', '100000000000000000000'],
        '--count takes a whole number from 0 to 9007199254740991, got "100000000000000000000"',
      ],
      [['compress', '--max-tokens', 'abc'], '--max-tokens takes a whole number from 1 to 9007199254740991, got "abc"'],
      [['compress', '--max-tokens', '0'], '--max-tokens takes a whole number from 1 to 9007199254740991, got "0"'],
    ] as const) {
      const result = await spawnCli([...args], { env });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`squeeze ${args[0]}: ${message}\n`);
    }
  });

  it('exits 2 on a usage mistake', async () => {
    const result = await spawnCli(['retrieve', '--frobnicate'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("squeeze retrieve: unknown option '--frobnicate' (see --help)\n");
  });
});

describe('squeeze (in process)', () => {
  it('routes help, unknown commands and missing commands', async () => {
    expect((await runCli([])).code).toBe(2);
    expect((await runCli(['help'])).code).toBe(0);
    const helpRetrieve = await runCli(['help', 'retrieve']);
    expect(helpRetrieve.code).toBe(0);
    expect(helpRetrieve.stdout.toString()).toMatch(/^Usage: squeeze retrieve/);
    const unknown = await runCli(['frob']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^squeeze: unknown command "frob"/);
    expect((await runCli(['retrieve', 'x', '-h'])).code).toBe(0);
  });

  it('serves 1-based line ranges with their exact bytes, prints nothing past the end and refuses --start 0', async () => {
    const id = stored(ORIGINAL);
    expect((await runCli(['retrieve', id, '--start', '2', '--count', '2'], { env })).stdout.toString()).toBe(
      'line two\nERROR three\n',
    );
    expect((await runCli(['retrieve', id, '--start', '5'], { env })).stdout.toString()).toBe('no newline at the end');
    const past = await runCli(['retrieve', id, '--start', '99', '--count', '5'], { env });
    expect(past).toMatchObject({ code: 0, stderr: 'squeeze: --start 99 is past the end: the original has 5 lines\n' });
    expect(past.stdout.length).toBe(0);
    // `--start -1` too (Node's parser alone calls it "ambiguous"), and `--count -3`.
    for (const args of [['--start=0'], ['--start=-1'], ['--start', '-1'], ['--count', '-3']]) {
      const refused = await runCli(['retrieve', id, ...args], { env });
      expect(refused.code).toBe(2);
      expect(refused.stdout.length).toBe(0);
      expect(refused.stderr).toMatch(
        /^squeeze retrieve: --(start|count) takes a whole number from [01] to 9007199254740991, got "-?\d+"\n$/,
      );
    }
  });

  it('takes the id in any case or inside a pasted marker or notice line; a malformed id is a usage error', async () => {
    const id = stored(ORIGINAL);
    for (const given of [
      id.toUpperCase(),
      `<<<CCR:${id}|terminal|${Buffer.byteLength(ORIGINAL)}>>>`,
      `[original: squeeze retrieve ${id} [--start N --count N]]`,
    ]) {
      const result = await runCli(['retrieve', given], { env });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout.toString()).toBe(ORIGINAL);
    }
    for (const given of [id.slice(2), `${id}00`, 'last-one']) {
      const refused = await runCli(['retrieve', given], { env });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/names no id: an id is the 24 hex characters after "<<<CCR:"/);
      expect(refused.stderr).not.toMatch(/re-run/i);
    }
  });

  it('greps with line numbers, literally or ignoring case, and rejects a bad pattern', async () => {
    const id = stored(ORIGINAL);
    expect((await runCli(['retrieve', id, '--grep', 'error'], { env })).stdout.toString()).toBe(
      '4: four: error four\n',
    );
    expect((await runCli(['retrieve', id, '--grep', 'error', '-i'], { env })).stdout.toString()).toBe(
      '3: ERROR three\n4: four: error four\n',
    );
    expect((await runCli(['retrieve', id, '--grep', 't', '--max-matches', '1'], { env })).stdout.toString()).toBe(
      '1: \ufeffstart 日本語 ✓\n[… 3 more matches …]\n',
    );
    const bad = await runCli(['retrieve', id, '--grep', '(four'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Invalid grep pattern: missing closing \): "\(four"/);
    const long = await runCli(['retrieve', id, '--grep', 'x'.repeat(32 * 1024)], { env });
    expect(long.code).toBe(2);
    expect(long.stderr).toMatch(/limit is 1,000/);
    expect(long.stderr.length).toBeLessThan(400);
    const backreference = await runCli(['retrieve', id, '--grep', '(t)\\1'], { env });
    expect(backreference).toMatchObject({ code: 2 });
    expect(backreference.stderr).toMatch(/backreferences .*--literal/);
    expect((await runCli(['retrieve', id, '--grep', '(a+)+$'], { env })).code).toBe(0);
    expect((await runCli(['retrieve', id, '--grep', 'four:', '-F'], { env })).stdout.toString()).toBe(
      '4: four: error four\n',
    );
    const none = await runCli(['retrieve', id, '--grep', 'zebra'], { env });
    expect(none).toMatchObject({ code: 0, stderr: 'squeeze: no line matches "zebra"\n' });
    expect((await runCli(['retrieve', id, '-i'], { env })).code).toBe(2);
  });

  it('says "expired" for an original whose time ran out in an earlier process', async () => {
    const id = stored('an old result\n', defaultDir, () => Date.now() - 2 * 3_600_000);
    const result = await runCli(['retrieve', id], { env });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/has expired.*Re-run the original tool/);
  });

  it('uses --store DIR instead of the default directory', async () => {
    const dir = join(root, 'elsewhere');
    const id = stored('kept elsewhere', dir);
    expect((await runCli(['retrieve', id, '--store', dir], { env })).stdout.toString()).toBe('kept elsewhere');
    expect((await runCli(['retrieve', id], { env })).code).toBe(3);
  });

  it('exits 6 with one clear line when the store cannot be opened', async () => {
    const blocker = join(root, 'not-a-dir');
    writeFileSync(blocker, 'x');
    const result = await runCli(['retrieve', '0123456789abcdef01234567', '--store', blocker], { env });
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/^squeeze retrieve: store .*not-a-dir is not a folder; .*\n$/);
  });

  it('rejects malformed numbers and extra arguments', async () => {
    for (const args of [
      ['retrieve', 'x', '--start', '-1'],
      ['retrieve', 'x', '--count', '1.5'],
      ['retrieve', 'a', 'b'],
      ['retrieve'],
    ]) {
      const result = await runCli(args, { env });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(/^squeeze retrieve: /);
    }
  });
});

describe('squeeze estimate', () => {
  it('prints the estimate of stdin, as a number or JSON', async () => {
    const text = 'error: cannot find module "x"\n'.repeat(50);
    const plain = await runCli(['estimate'], { stdin: text });
    expect(plain.code).toBe(0);
    const tokens = Number(plain.stdout.toString());
    expect(plain.stdout.toString()).toMatch(/^\d+\n$/);
    expect(tokens).toBeGreaterThan(100);
    const json = await runCli(['estimate', '-', '--json'], { stdin: text });
    expect(JSON.parse(json.stdout.toString())).toEqual({ tokens });
    expect((await runCli(['estimate', '--json'], { stdin: '' })).stdout.toString()).toBe('{"tokens":0}\n');
    const o200k = await runCli(['estimate', '--tokenizer', 'o200k'], { stdin: text });
    expect(o200k.code).toBe(0);
  });

  it('reads a file, and exits 4 when it cannot', async () => {
    const file = join(root, 'estimate-me.txt');
    writeFileSync(file, 'hello world\n');
    expect((await runCli(['estimate', file])).stdout.toString()).toMatch(/^[1-9]\d*\n$/);
    const missing = await runCli(['estimate', join(root, 'absent.txt')]);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toMatch(/^squeeze estimate: cannot read .*absent\.txt: no such file\n$/);
    expect((await runCli(['estimate', root])).code).toBe(4);
    expect((await runCli(['estimate', '--tokenizer', 'gpt2'], { stdin: 'x' })).code).toBe(2);
  });

  it('estimates bytes that are not UTF-8, with a warning', async () => {
    const result = await runCli(['estimate'], { stdin: Buffer.from([0x61, 0xff, 0xfe, 0x62, 0x0a]) });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/not valid UTF-8/);
  });
});
