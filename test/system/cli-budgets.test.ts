// `squeeze compress` budgets and routing flags do what the help says:
// --max-tokens is a ceiling, --target-tokens moves the default level's output,
// a forced --level that cannot fit says so on stderr, --command routes.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { fixtures } from '../support/fixtures.js';

const root = mkdtempSync(join(tmpdir(), 'squeeze-cli-budgets-'));
// Several real logs in one: its lossless form (same-shape runs folded) lies between the budgets below.
const log = fixtures('logs')
  .filter((f) => ['java-stack', 'pytest', 'go-test', 'tsc-pretty', 'rustc-diagnostics'].includes(f.name))
  .map((f) => f.text)
  .join('\n');
const json = JSON.stringify(
  Array.from({ length: 300 }, (_, i) => ({ id: i, name: `user ${i}`, active: i % 3 === 0 })),
  null,
  2,
);

async function compress(args: string[], stdin = log) {
  const result = await runCli(['compress', '--json', '--store', join(root, 'store'), ...args], { stdin });
  expect(result.code, args.join(' ')).toBe(0);
  return JSON.parse(result.stdout.toString());
}

describe('squeeze compress budgets and routing', () => {
  it('--max-tokens is a ceiling and --target-tokens moves the output', async () => {
    const capped = await compress(['--max-tokens', '600']);
    expect(capped.tokensOut).toBeLessThanOrEqual(600);
    const roomy = await compress(['--target-tokens', '3000']);
    const tight = await compress(['--target-tokens', '500']);
    expect(tight.tokensOut).toBeLessThan(roomy.tokensOut);
  });

  it('says so on stderr, and in levelNotKept, when a forced --level cannot fit', async () => {
    const forced = await compress(['--level', 'lossless', '--max-tokens', '600']);
    expect(forced.levelNotKept).toEqual({ requested: 'lossless', reason: 'over-max-tokens' });
    expect(forced.tokensOut).toBeLessThanOrEqual(600);
    const plain = await runCli(
      ['compress', '--store', join(root, 'store'), '--level', 'lossless', '--max-tokens', '600'],
      { stdin: log },
    );
    expect(plain.stderr).toMatch(/^squeeze: --level lossless not kept: its output is over --max-tokens; applied \w+/);
    const fits = await compress(['--level', 'lossless', '--max-tokens', '100000']);
    expect(fits.level).toBe('lossless');
    expect(fits.levelNotKept).toBeUndefined();
  });

  it('routes by --command after --tool', async () => {
    expect((await compress(['--tool', 'bash', '--command', 'head -n 2000 users.json'], json)).kind).toBe('json');
    expect((await compress(['--tool', 'bash', '--command', 'cd app && mvn -q test 2>&1 | tail -400'])).kind).toBe(
      'log',
    );
  });

  it('rejects a ceiling of 0 and a budget over the ceiling with exit 2', async () => {
    for (const args of [
      ['--max-tokens', '0'],
      ['--target-tokens', '5000', '--max-tokens', '3000'],
    ]) {
      const result = await runCli(['compress', ...args], { stdin: log });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(/^squeeze compress: /);
    }
  });
});
