// Where the ledger lines (docs/GLOSSARY.md) go: the plugin's logger and,
// when configured, the `[ISO] message` lines of `logFile` (the store's sink,
// which never throws: a file it cannot write is reported once, then skipped).
// The strings themselves are the store's ledger module, byte for byte.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { ledger as lines } from '../../store/index.js';

export { lines };

export interface LedgerLogger {
  info(message: string): void;
  warn(message: string): void;
}

export interface Ledger {
  /** One ledger line (already formatted, e.g. `ccr: retrieved <hash>`). */
  write(line: string): void;
}

/**
 * `~/...` resolved against the home directory; '' stays '' (no file). Paths
 * under `~/.dsh` follow `$DSH_HOME` when it is set, as the harness's own data
 * does (dsh-home-paths: a blank DSH_HOME counts as unset).
 */
export function expandHome(path: string, env: NodeJS.ProcessEnv = process.env): string {
  const dshHome = env.DSH_HOME?.trim() ? resolve(env.DSH_HOME) : undefined;
  if (dshHome !== undefined && (path === '~/.dsh' || path.startsWith('~/.dsh/')))
    return join(dshHome, path.slice('~/.dsh'.length));
  return path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
}

export function createLedger(logger: LedgerLogger, options: { enabled: boolean; file: string }): Ledger {
  const sink = lines.createLogSink({
    log: options.enabled,
    logFile: expandHome(options.file),
    warn: (m) => logger.warn(m),
  });
  return {
    write(line) {
      if (!options.enabled) return;
      logger.info(line);
      sink(line);
    },
  };
}
