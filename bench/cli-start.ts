// Cold start of the CLI: a small pass-through (`squeeze compress` of a few
// lines, below the activation threshold, so nothing is stored) in a fresh
// process, against `node -e 0` measured interleaved in the same run (the ratio
// is the number: the machine's load moves both sides). Needs dist/ (npm run build).
// Run: npx tsx bench/cli-start.ts [runs]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median } from './measure.js';

const CLI = resolve(import.meta.dirname, '../dist/cli.js');
const SMALL = 'PASS test/unit/a.test.ts (12 tests)\nPASS test/unit/b.test.ts (4 tests)\n';

export interface CliStart {
  readonly runs: number;
  readonly nodeMs: number;
  readonly versionMs: number;
  readonly passThroughMs: number;
}

function wallMs(args: readonly string[], input: string, env: NodeJS.ProcessEnv): number {
  const started = performance.now();
  const child = spawnSync(process.execPath, args, { input, env, encoding: 'utf8' });
  const ms = performance.now() - started;
  if (child.status !== 0) throw new Error(`${args.join(' ')} failed: ${child.stderr}`);
  return ms;
}

/** Medians over `runs` rounds, each round running the three commands one after another. */
export function measureCliStart(runs: number): CliStart {
  const cache = mkdtempSync(join(tmpdir(), 'squeeze-cli-start-'));
  // A store folder of its own: the default one belongs to the user.
  const env = { ...process.env, XDG_CACHE_HOME: cache, SQUEEZE_SESSION: '' };
  const node: number[] = [];
  const version: number[] = [];
  const pass: number[] = [];
  try {
    for (let i = 0; i < runs + 1; i++) {
      const a = wallMs(['-e', '0'], '', env);
      const b = wallMs([CLI, '--version'], '', env);
      const c = wallMs([CLI, 'compress', '--tool', 'bash'], SMALL, env);
      if (i === 0) continue; // warms the disk cache (and Node 22's compile cache)
      node.push(a);
      version.push(b);
      pass.push(c);
    }
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
  return { runs, nodeMs: median(node), versionMs: median(version), passThroughMs: median(pass) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const m = measureCliStart(Number(process.argv[2] ?? 15));
  console.log(`Node ${process.version}, ${m.runs} rounds, median wall ms:`);
  console.log('| command | ms | / node -e 0 |');
  console.log('|---|---:|---:|');
  console.log(`| node -e 0 | ${m.nodeMs.toFixed(1)} | 1.00x |`);
  console.log(`| squeeze --version | ${m.versionMs.toFixed(1)} | ${(m.versionMs / m.nodeMs).toFixed(2)}x |`);
  console.log(
    `| squeeze compress (small, passed through) | ${m.passThroughMs.toFixed(1)} | ${(m.passThroughMs / m.nodeMs).toFixed(2)}x |`,
  );
}
