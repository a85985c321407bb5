// Big results are compressed on a worker thread so a host's event loop (the
// DSH harness) never waits on them: a piscina pool (a maintained worker_threads
// pool: queueing, idle shutdown, unref'd idle workers) started on first use,
// its workers handed the WebAssembly module this thread compiled. piscina is
// loaded on that first use: only compressAsync needs it, and importing it costs
// every CLI call and every host about 15 ms at start.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Piscina } from 'piscina';
import { compiledModule } from '../engine/index.js';
import type { WorkerResult, WorkerTask } from './worker.js';

/** Idle workers exit after this long; the pool starts them again on demand. */
const IDLE_MS = 30_000;

/**
 * The worker script: dist/worker.js next to the bundle's entries (this code
 * may sit in dist/ or dist/chunks/), or worker.ts beside this file when
 * running from source (then through tsx, a development dependency).
 */
function workerFile(): { filename: string; execArgv?: string[] } | null {
  for (const candidate of ['./worker.js', '../worker.js', './worker.ts']) {
    const url = new URL(candidate, import.meta.url);
    if (url.protocol !== 'file:' || !existsSync(url)) continue;
    const filename = fileURLToPath(url);
    // Without execArgv a worker inherits the process's own options (Node drops those a worker cannot take).
    return candidate.endsWith('.ts') ? { filename, execArgv: [...process.execArgv, '--import', 'tsx'] } : { filename };
  }
  return null;
}

let pool: Promise<Piscina<WorkerTask, WorkerResult> | null> | undefined;

/** The shared pool, or null where worker threads cannot run this code (the caller compresses inline). */
export function workerPool(): Promise<Piscina<WorkerTask, WorkerResult> | null> {
  // A piscina that will not load (a broken install) leaves compressing inline, as with no worker file.
  return (pool ??= startPool().catch(() => null));
}

async function startPool(): Promise<Piscina<WorkerTask, WorkerResult> | null> {
  const file = workerFile();
  if (file === null) return null;
  let wasmModule: WebAssembly.Module | undefined;
  try {
    wasmModule = compiledModule();
  } catch {
    wasmModule = undefined; // workers fall back to the TypeScript twin like this thread does
  }
  const { Piscina } = await import('piscina');
  return new Piscina<WorkerTask, WorkerResult>({
    filename: file.filename,
    ...(file.execArgv ? { execArgv: file.execArgv } : {}),
    workerData: { wasmModule },
    minThreads: 0,
    maxThreads: 1,
    idleTimeout: IDLE_MS,
  });
}
