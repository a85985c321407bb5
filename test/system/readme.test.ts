// The README's examples run as written: every ```sh block after a
// `<!-- readme-test` comment runs in bash, in a folder that looks like a built
// clone (the clone's dist/, build/, node_modules and package files linked in,
// so what a block writes stays out of the repository), with its own cache.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/^<!-- readme-test[^\n]*-->\n```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);

const clone = mkdtempSync(join(tmpdir(), 'squeeze-readme-'));
for (const name of ['dist', 'build', 'node_modules', 'package.json', 'package-lock.json'])
  symlinkSync(join(root, name), join(clone, name));
mkdirSync(join(clone, '.cache'));
const cloneEntries = readdirSync(clone).sort();
afterAll(() => rmSync(clone, { recursive: true, force: true }));

describe('the README examples', () => {
  it('are marked for this test', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(2);
  });

  it.each(blocks.map((block) => [block.split('\n')[0], block]))(
    'run as written, leaving nothing behind: %s',
    (_, block) => {
      const run = spawnSync('bash', ['-euo', 'pipefail', '-c', block], {
        cwd: clone,
        encoding: 'utf8',
        env: { ...process.env, XDG_CACHE_HOME: join(clone, '.cache') },
      });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout.length).toBeGreaterThan(0);
      // A reader runs these in a real clone: whatever a block writes there would be left untracked.
      expect(readdirSync(clone).sort()).toEqual(cloneEntries);
    },
  );
});
