// The whole pipeline's speed: `compress()` at default settings on real logs
// (loghub and CI logs from ../shared/corpus, concatenated and cut at a line
// end) of 32 KB, 1 MB and 10 MB, with the WebAssembly kernels and with the
// TypeScript twins, medians in one process. Targets (issue 3): 32 KB <= 1 ms,
// 1 MB <= 10 ms, 10 MB <= 100 ms; the specification asks < 200 ms (docs/GLOSSARY.md, Level).
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createSqueeze } from '../src/pipeline/index.js';

const CORPUS = resolve(import.meta.dirname, '../../shared/corpus');

export function logStream(bytes: number): string {
  const files = ['loghub', 'build-logs'].flatMap((folder) =>
    readdirSync(join(CORPUS, folder))
      .filter((f) => f.endsWith('.log'))
      .sort()
      .map((f) => join(CORPUS, folder, f)),
  );
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const text = readFileSync(files[i % files.length]!, 'utf8');
    parts.push(text);
    size += Buffer.byteLength(text);
  }
  const all = parts.join('\n');
  const cut = all.lastIndexOf('\n', bytes);
  return all.slice(0, cut > 0 ? cut : bytes);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

export async function compressSpeed(): Promise<string> {
  const sizes = [
    ['32 KB', 32 * 1024, 31, 1],
    ['1 MB', 1 << 20, 11, 10],
    ['10 MB', 10 << 20, 5, 100],
  ] as const;
  const rows: string[] = [];
  for (const [label, bytes, samples, target] of sizes) {
    const text = logStream(bytes);
    const times: Record<'wasm' | 'js', number[]> = { wasm: [], js: [] };
    const squeezers = {
      wasm: createSqueeze({ backend: 'wasm', recentResults: 0 }),
      js: createSqueeze({ backend: 'js', recentResults: 0 }),
    };
    let out = 0;
    for (let s = -2; s < samples; s++) {
      for (const backend of ['wasm', 'js'] as const) {
        // A distinct text each call: the store and the kernels cannot reuse the previous one.
        const input = `${text}\n#${s}`;
        const started = performance.now();
        const result = squeezers[backend].compress(input, { toolName: 'bash' });
        const ms = performance.now() - started;
        if (s >= 0) times[backend].push(ms);
        out = result.tokensOut;
      }
    }
    const wasm = median(times.wasm);
    const js = median(times.js);
    rows.push(
      `| ${label} | ${wasm.toFixed(1)} | ${js.toFixed(1)} | ${(js / wasm).toFixed(2)}x | <= ${target} | ${wasm <= target ? 'yes' : 'NO'} | ${out} |`,
    );
  }
  return [
    '## compress() end to end',
    '',
    'Default settings, tool `bash`, real logs concatenated; median ms per call in one process (WebAssembly and twin calls interleaved), including inspection, routing, the log processor, the guard and storing the original.',
    '',
    '| input | WebAssembly ms | TS twin ms | twin/wasm | target ms | met | tokens out |',
    '|---|---:|---:|---:|---:|---|---:|',
    ...rows,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await compressSpeed());
