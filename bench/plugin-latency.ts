// Added latency of the squeeze/dsh plugin per tool result, measured through the
// real harness ToolRuntime (ctx.tools.execute, the whole tool pipeline) with and
// without the plugin in one run, on real logs from the shared corpus cut to
// 32 KB and 1 MB. Two deployments: the bare runtime, and the shipped incumbent
// (LocalSpillStore + spill-policy at 50,000 bytes), where the plugin's own
// spill save replaces spill-policy's. Targets: <= 1 ms (32 KB), <= 15 ms (1 MB).
//
//   npx tsx bench/plugin-latency.ts
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Context } from '@deepseek-ai/cordis';
import LocalSpillStore from '@deepseek-ai/dsh-spill-local';
import * as SpillPolicy from '@deepseek-ai/dsh-spill-policy';
import SystemPrompt from '@deepseek-ai/dsh-system-prompt';
import ToolRuntime, { defineTool } from '@deepseek-ai/dsh-tools';
import * as squeeze from '../src/adapters/dsh/index.js';
import { parseConfig, squeezeOptionsOf } from '../src/adapters/dsh/config.js';
import { coreServices } from '../src/adapters/dsh/core.js';
import { createPostExecuteListener } from '../src/adapters/dsh/listener.js';
import { Spills } from '../src/adapters/dsh/spill.js';
import { createSqueeze } from '../src/pipeline/index.js';

const LOGS = resolve(import.meta.dirname, '../../shared/corpus/loghub');
// Small results are cheap to repeat and noisy on a shared machine: more runs.
const SIZES = [
  { label: '32 KB', bytes: 32 * 1024, target: 1, warmup: 30, runs: 101 },
  { label: '1 MB', bytes: 1024 * 1024, target: 15, warmup: 10, runs: 31 },
];

/**
 * Texts the pipeline remembers no part of (it remembers `recentResults`, 3,
 * results per conversation): real log lines cut into windows of `bytes`, one
 * after the other through the loghub samples, so no two share a line. The
 * same text in every call would time a repeat's reference, not a compression.
 */
const DISTINCT_TEXTS = 4;

function realLogs(bytes: number): string[] {
  const lines = readdirSync(LOGS)
    .filter((f) => f.endsWith('.log'))
    .sort()
    .flatMap((f) => readFileSync(join(LOGS, f), 'utf8').split('\n'));
  const texts: string[] = [];
  let at = 0;
  while (texts.length < DISTINCT_TEXTS) {
    const window: string[] = [];
    let size = 0;
    for (; ; at++) {
      const line = lines[at % lines.length]!;
      const next = size + Buffer.byteLength(line, 'utf8') + 1;
      if (next > bytes) break;
      window.push(line);
      size = next;
    }
    texts.push(window.join('\n'));
  }
  return texts;
}

/** The next of `texts` at each call. */
function rotating(texts: readonly string[]): () => string {
  let next = 0;
  return () => texts[next++ % texts.length]!;
}

async function deployment(incumbent: boolean, withPlugin: boolean, dir: string, text: () => string): Promise<Context> {
  const ctx = new Context();
  await ctx.plugin(SystemPrompt);
  await ctx.plugin(ToolRuntime);
  if (incumbent) {
    await ctx.plugin(LocalSpillStore, { root: join(dir, withPlugin ? 'with' : 'without') });
    await ctx.plugin(SpillPolicy, { maxInlineBytes: 50000 });
  }
  if (withPlugin) await ctx.plugin(squeeze, { log: false });
  ctx.tools.register(
    defineTool({
      name: 'bash',
      description: 'returns the benchmark text',
      parameters: {},
      output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
      execute: async () => text(),
    }),
  );
  return ctx;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

let calls = 0;
/** One conversation, as in a harness session: the plugin's pipeline for it remembers its recent results. */
const AGENT = { session: { header: { id: 'bench-session' } } };
async function timeOne(ctx: Context): Promise<{ ms: number; bytesOut: number }> {
  const start = performance.now();
  const result = await ctx.tools.execute({
    callId: `bench-${++calls}` as never,
    name: 'bash',
    arguments: {},
    signal: new AbortController().signal,
    agent: AGENT as never,
  });
  const ms = performance.now() - start;
  const bytesOut = result.content.reduce((n, b) => n + (b.type === 'text' ? Buffer.byteLength(b.text, 'utf8') : 0), 0);
  return { ms, bytesOut };
}

/**
 * The pipeline alone (what the plugin calls) and the plugin's own share: the
 * post-execute listener on the real core minus the pipeline, run alternately
 * in-process (no harness, no spill store) as the median of paired differences.
 */
async function split(
  texts: readonly string[],
  runs: number,
  warmup: number,
): Promise<{ pipeline: number; own: number }> {
  const config = parseConfig({ log: false });
  const services = coreServices(config, {
    ttlSeconds: 3600,
    storeBudgetBytes: 1 << 30,
    store: ':memory:',
    onEvent: () => {},
    warn: () => {},
  });
  const listener = createPostExecuteListener({
    config,
    services,
    ledger: { write() {} },
    warn: () => {},
    spills: new Spills(
      () => undefined,
      () => {},
    ),
  });
  const pipeline = createSqueeze({ ...squeezeOptionsOf(config), retainOriginal: false, store: null }); // as adapters/dsh/core.ts makes it
  const alone: number[] = [];
  const own: number[] = [];
  for (let i = 0; i < warmup + runs; i++) {
    const text = texts[i % texts.length]!;
    const result = { isError: false, value: text, content: [{ type: 'text', text }] } as never;
    const exec = { name: 'bash', callId: `split-${i}`, signal: new AbortController().signal, arguments: {} } as never;
    let start = performance.now();
    await listener(exec, result, async () => ({ kind: 'accept' }));
    const withListener = performance.now() - start;
    start = performance.now();
    pipeline.compress(text, { toolName: 'bash', isError: false });
    const pipelineOnly = performance.now() - start;
    if (i >= warmup) {
      alone.push(pipelineOnly);
      own.push(withListener - pipelineOnly);
    }
  }
  return { pipeline: median(alone), own: median(own) };
}

/** Runs the benchmark and returns its markdown section. */
export async function pluginLatency(options: { runsScale?: number } = {}): Promise<string> {
  const scale = options.runsScale ?? 1;
  const dir = mkdtempSync(join(tmpdir(), 'squeeze-bench-'));
  const rows: string[] = [];
  try {
    for (const incumbent of [false, true]) {
      for (const size of SIZES) {
        const texts = realLogs(size.bytes);
        // Each deployment is handed the texts in turn, so both see the same sequence.
        const without = await deployment(incumbent, false, dir, rotating(texts));
        const withPlugin = await deployment(incumbent, true, dir, rotating(texts));
        const runs = Math.max(5, Math.round(size.runs * scale));
        for (let i = 0; i < size.warmup; i++) await Promise.all([timeOne(without), timeOne(withPlugin)]); // warm-up (JIT, WASM)
        const base: number[] = [];
        const plug: number[] = [];
        let bytesOut = 0;
        let baseOut = 0;
        for (let i = 0; i < runs; i++) {
          // alternate, so drift hits both sides alike
          const a = await timeOne(without);
          const b = await timeOne(withPlugin);
          base.push(a.ms);
          plug.push(b.ms);
          baseOut = a.bytesOut;
          bytesOut = b.bytesOut;
        }
        const added = median(plug) - median(base);
        const parts = await split(texts, runs, size.warmup);
        rows.push(
          `| ${incumbent ? 'spill store + spill-policy' : 'bare ToolRuntime'} | ${size.label} | ` +
            `${median(base).toFixed(2)} | ${median(plug).toFixed(2)} | **${added.toFixed(2)}** | ${parts.pipeline.toFixed(2)} | ${parts.own.toFixed(2)} | <= ${size.target} | ` +
            `${added <= size.target ? 'yes' : 'NO'} | ${runs} | ${baseOut.toLocaleString('en-US')} -> ${bytesOut.toLocaleString('en-US')} |`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return [
    '## DSH plugin latency',
    '',
    `Time of one \`ctx.tools.execute\` of a \`bash\` tool returning real loghub lines (${DISTINCT_TEXTS} texts in turn, ` +
      `no two sharing a line, in one conversation), through the real harness ` +
      `ToolRuntime, without and with squeeze/dsh (default config), medians of alternating runs after a warm-up, on ` +
      `Node ${process.versions.node}. "Added" is the difference of the medians (spill-store writes included in the ` +
      `second deployment). "Pipeline alone" is \`createSqueeze().compress\` on the same texts outside the harness, the ` +
      `compression part of "added"; "plugin own" is the adapter's share (the post-execute listener on the real core ` +
      `minus the pipeline, run alternately in-process, median of the paired differences; no spill store).`,
    '',
    '| deployment | result | without (ms) | with (ms) | added (ms) | pipeline alone (ms) | plugin own (ms) | target (ms) | met | runs | bytes to the model (without -> with) |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await pluginLatency());
}
