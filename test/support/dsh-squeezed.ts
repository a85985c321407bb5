// The real DSH tools (test/support/dsh-tools.ts) with what a user's harness
// adds around them: the local spill store, the shipped spill-policy and the
// squeeze plugin with the given config. The integration tests' one mount.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import LocalSpillStore from '@deepseek-ai/dsh-spill-local';
import * as SpillPolicy from '@deepseek-ai/dsh-spill-policy';
import { squeezePlugin } from './dsh-harness.js';
import { mountDshTools, type DshTools } from './dsh-tools.js';

/** The project's own installed packages (read-only: tests copy from here). */
export const MAIN_MODULES = resolve(import.meta.dirname, '../../node_modules');

/** The squeeze plugin config of a test: no ledger file; `level` forced when given. */
export function pluginConfig(level?: 'lossless' | 'light' | 'aggressive'): Record<string, unknown> {
  return { logFile: '', ...(level ? { level } : {}) };
}

/** Mounts tools, spill store and policy, and squeeze (config as given) over `cwd`. */
export function mountSqueezedTools(
  cwd: string,
  config: Record<string, unknown>,
  sessionId?: string,
): Promise<DshTools> {
  return mountDshTools({
    cwd,
    ...(sessionId ? { sessionId } : {}),
    before: async (ctx) => {
      await ctx.plugin(LocalSpillStore, { root: join(cwd, '.spill') });
      await ctx.plugin(SpillPolicy, { maxInlineBytes: 50000 });
      await ctx.plugin(squeezePlugin() as never, config as never);
    },
  });
}

/** A temp folder; `dispose` removes it. */
export function tempDir(prefix: string): { dir: string; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Copies installed packages into `<dir>/node_modules` (real files, symlinks followed). */
export function vendor(dir: string, packages: readonly string[]): void {
  for (const name of packages)
    cpSync(join(MAIN_MODULES, name), join(dir, 'node_modules', name), { recursive: true, dereference: true });
}

/** The CCR marker squeeze puts on every result it changed. */
export const SQUEEZED = /<<<CCR:[0-9a-f]{24}\|/;
