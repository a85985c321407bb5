// Cold start: each sample is a fresh Node process (so no compiled-module cache
// from an earlier compile can help) that reads build/squeeze.wasm and times
// `new WebAssembly.Module`, `new WebAssembly.Instance` and the first kernel
// call (count_lines + lines on 1 KB, through the raw exports).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { median } from './measure.js';

export const WASM_PATH = resolve(import.meta.dirname, '../build/squeeze.wasm');

const CHILD = `
const { readFileSync } = await import('node:fs');
const bytes = readFileSync(process.env.WASM_PATH);
const text = process.env.FIRST_TEXT;
const t0 = performance.now();
const module = new WebAssembly.Module(bytes);
const t1 = performance.now();
const e = new WebAssembly.Instance(module, {}).exports;
const t2 = performance.now();
const ptr = e.heap_base();
const mem = new Uint16Array(e.memory.buffer, ptr, text.length);
for (let i = 0; i < text.length; i++) mem[i] = text.charCodeAt(i);
const count = e.count_lines(ptr, text.length);
const out = (ptr + text.length * 2 + 15) & ~15;
if (out + count * 16 > e.memory.buffer.byteLength) throw new Error('1 KB probe must fit the initial page');
e.lines(ptr, text.length, out, out + count * 4, out + count * 8, out + count * 12);
const t3 = performance.now();
console.log(JSON.stringify({ compile: t1 - t0, instantiate: t2 - t1, firstCall: t3 - t2 }));
`;

export interface ColdStart {
  readonly bytes: number;
  readonly base64Chars: number;
  readonly samples: number;
  readonly compile: number;
  readonly instantiate: number;
  readonly firstCall: number;
}

export function measureColdStart(firstText: string, samples: number): ColdStart {
  const bytes = readFileSync(WASM_PATH);
  const runs: { compile: number; instantiate: number; firstCall: number }[] = [];
  for (let i = 0; i < samples; i++) {
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', CHILD], {
      env: { ...process.env, WASM_PATH, FIRST_TEXT: firstText },
      encoding: 'utf8',
    });
    if (child.status !== 0) throw new Error(`cold-start probe failed: ${child.stderr}`);
    runs.push(JSON.parse(child.stdout));
  }
  return {
    bytes: bytes.length,
    base64Chars: bytes.toString('base64').length,
    samples,
    compile: median(runs.map((r) => r.compile)),
    instantiate: median(runs.map((r) => r.instantiate)),
    firstCall: median(runs.map((r) => r.firstCall)),
  };
}

export interface FreshProcessRow {
  readonly backend: 'wasm' | 'js';
  readonly bytes: number;
  /** createBackend(): for wasm, base64 decode + validate + compile + instantiate. */
  readonly load: number;
  readonly first: number;
  readonly second: number;
}

const CHILD_SCRIPT = resolve(import.meta.dirname, 'cold-child.ts');

/** What a one-shot process (the CLI) pays: medians over fresh processes per backend and size. */
export function measureFreshProcess(sizes: readonly number[], samples: number): FreshProcessRow[] {
  const rows: FreshProcessRow[] = [];
  for (const bytes of sizes) {
    for (const backend of ['wasm', 'js'] as const) {
      const runs: { load: number; first: number; second: number }[] = [];
      for (let i = 0; i < samples; i++) {
        const child = spawnSync(process.execPath, ['--import', 'tsx', CHILD_SCRIPT, backend, String(bytes)], {
          encoding: 'utf8',
        });
        if (child.status !== 0) throw new Error(`fresh-process probe failed: ${child.stderr}`);
        runs.push(JSON.parse(child.stdout));
      }
      rows.push({
        backend,
        bytes,
        load: median(runs.map((r) => r.load)),
        first: median(runs.map((r) => r.first)),
        second: median(runs.map((r) => r.second)),
      });
    }
  }
  return rows;
}
