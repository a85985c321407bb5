// `squeeze compress --session`: the session's recent results live in the store,
// so a repeat in a later process becomes a reference to what the model saw.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const root = mkdtempSync(join(tmpdir(), 'squeeze-cli-session-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const file = Array.from(
  { length: 18 },
  (_, i) => `line ${i + 1} of a file read three times: ${'x'.repeat(i % 5)}`,
).join('\n');
const identical = /^\[… lines 1–18 \(18\): identical to an earlier tool result …\]$/m;

describe('squeeze compress --session', () => {
  it('turns the same output again in one session into a reference, by the flag or SQUEEZE_SESSION', async () => {
    const store = join(root, 'store');
    const call = (args: string[], env: Record<string, string> = {}) =>
      runCli(['compress', '--store', store, '--tool', 'bash', '--command', 'cat notes.txt', ...args], {
        stdin: file,
        env,
      });
    const first = await call(['--session', 'a']);
    expect(first.stdout.toString()).toBe(file);
    const second = await call([], { SQUEEZE_SESSION: 'a' });
    expect(second.stdout.toString()).toMatch(identical);
    const id = /<<<CCR:([0-9a-f]{24})\|/.exec(second.stdout.toString())![1]!;
    const back = await runCli(['retrieve', id, '--store', store]);
    expect(back.stdout.toString()).toBe(file);
    // Another session never saw it; no session, no memory.
    expect((await call(['--session', 'b'])).stdout.toString()).toBe(file);
    expect((await call([])).stdout.toString()).toBe(file);
  });
});
