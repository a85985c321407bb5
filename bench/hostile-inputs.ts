// Hostile tool outputs (issue: bounded work on hostile input), shared by the
// benchmarks and the hostile-input tests.
const MB = 1024 * 1024;

export const HOSTILE: Record<string, () => string> = {
  'nested divs (2e5)': () => `<html><body>${'<div>'.repeat(200_000)}deep${'</div>'.repeat(200_000)}</body></html>`,
  'JSON, 1e6 keys': () => {
    const parts: string[] = [];
    for (let i = 0; i < 1_000_000; i++) parts.push(`"key${i}":${i}`);
    return `{${parts.join(',')}}`;
  },
  'single line, 50 MB': () => {
    const unit = 'GET /api/orders/12345 200 18ms user=alice session=abcdef0123456789 ';
    return unit.repeat(Math.ceil((50 * MB) / unit.length)).slice(0, 50 * MB);
  },
  'ANSI storm, 10 MB': () => {
    const unit = '\x1b[2K\x1b[1G\x1b[36m⠋\x1b[39m Building \x1b[1m42%\x1b[22m\x1b[0m\x1b[?25l';
    return unit.repeat(Math.ceil((10 * MB) / unit.length));
  },
  // Not from the issue: a `find /`-sized glob result, the slowest linear case found while probing.
  'glob listing, 10 MB': () => {
    const paths: string[] = [];
    for (let i = 0, size = 0; size < 10 * MB; i++) {
      const path = `src/a${i % 97}/b${i % 13}/file${i}.ts`;
      paths.push(path);
      size += path.length + 1;
    }
    return paths.join('\n');
  },
  'CR-only line endings, 850 KB': () => {
    const lines: string[] = [];
    for (let i = 0, size = 0; size < 850 * 1024; i++) {
      const line = `2026-11-30T09:00:00Z ${i % 40 === 0 ? 'ERROR' : 'INFO'} worker ${i % 7} processed job ${i}`;
      lines.push(line);
      size += line.length + 1;
    }
    return lines.join('\r');
  },
};

/** A deterministic UUID-shaped line for `i` (no two alike): what `uuidgen` in a loop prints. */
function uuidLine(i: number): string {
  let a = (i * 2654435761) >>> 0;
  let b = (i * 40503 + 0x9e3779b9) >>> 0;
  a ^= a >>> 15;
  b ^= b >>> 13;
  const hex = (n: number, width: number) => n.toString(16).padStart(width, '0').slice(-width);
  return `${hex(a, 8)}-${hex(b >>> 16, 4)}-4${hex(b, 3)}-a${hex(a >>> 4, 3)}-${hex(i, 12)}`;
}

/** One file's part of a unified diff: headers, two hunks of context and changes (about 3.4 KB). */
function diffFile(i: number): string {
  const path = `src/module${i % 50}/component${i}.ts`;
  const lines = [
    `diff --git a/${path} b/${path}`,
    `index ${(i * 7919).toString(16).padStart(7, '0')}..${(i * 104729).toString(16).padStart(7, '0')} 100644`,
    `--- a/${path}`,
    `+++ b/${path}`,
  ];
  for (let h = 0; h < 2; h++) {
    const at = 10 + h * 60;
    lines.push(`@@ -${at},20 +${at},20 @@ export function handler${i}_${h}(request: Request) {`);
    for (let k = 0; k < 20; k++) {
      const body = `  const value${k} = compute(request.field${k}, options.limit${k % 5}); // step ${k}`;
      if (k % 7 === 3) lines.push(`-${body}`, `+${body.replace('compute', 'computeChecked')}`);
      else lines.push(` ${body}`);
    }
  }
  return lines.join('\n');
}

/** The command that printed each of HOSTILE_LINEAR's inputs, where routing needs it (a find listing names directories too). */
export const HOSTILE_COMMANDS: Record<string, string> = { 'path listing, 260k': 'find .' };

/** The hostile inputs (bounded work on any input): each must come out compressed, in at most 2 s of CPU. */
export const HOSTILE_LINEAR: Record<string, () => string> = {
  'blank lines, 1e6': () => '\n'.repeat(1_000_000),
  'distinct lines, 500k UUIDs': () => Array.from({ length: 500_000 }, (_, i) => uuidLine(i)).join('\n'),
  'ANSI colour flood, 15 MB': () => {
    const lines: string[] = [];
    for (let i = 0, size = 0; size < 15 * MB; i++) {
      const line = `\x1b[32m✓\x1b[39m \x1b[2mtest/unit/case${i % 4000}.test.ts\x1b[22m \x1b[1m>\x1b[22m renders row ${i} \x1b[33m${i % 97}ms\x1b[39m`;
      lines.push(line);
      size += line.length + 1;
    }
    return lines.join('\n');
  },
  'unified diff, 3,000 files': () => Array.from({ length: 3000 }, (_, i) => diffFile(i)).join('\n'),
  'path listing, 260k': () => {
    // `find .` over 40 packages of 25 directories of 20 subdirectories of 12 files: directories before their contents.
    const paths: string[] = ['.', './packages'];
    for (let p = 0; p < 40; p++) {
      paths.push(`./packages/pkg${p}`);
      for (let d = 0; d < 25; d++) {
        paths.push(`./packages/pkg${p}/lib${d}`);
        for (let s = 0; s < 20; s++) {
          const dir = `./packages/pkg${p}/lib${d}/part${s}`;
          paths.push(dir);
          for (let f = 0; f < 12; f++)
            paths.push(`${dir}/file${f}.${f % 4 === 0 ? 'd.ts' : f % 3 === 0 ? 'map' : 'js'}`);
        }
      }
    }
    return paths.join('\n');
  },
};
