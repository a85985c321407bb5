// A scripted coding session in the real agent loop: one user turn, then one
// tool call per step whose result is a real output from the project's corpus
// (test/corpus/everyday: builds and test runs that fail, reads, greps, git,
// listings, JSON), then a closing answer. The model is a script; every request
// it receives is recorded. Used by bench/history.ts and the context engine's
// system test.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineTool } from '@deepseek-ai/dsh-tools';
import type { GenerateOptions } from '@deepseek-ai/dsh-llm';
import { createAgentHarness, squeezePlugin, type AgentHarness } from './dsh-harness.js';
import { mountDshCompaction } from './dsh-compaction.js';

const CORPUS = join(import.meta.dirname, '../corpus/everyday');

/** The session's steps, in order: corpus files (their manifest gives the tool and its arguments). */
export const SESSION_FILES = [
  'git/git-status.txt',
  'grep/dsh-glob-sources.txt',
  'code/read-cart-ts.txt',
  'build/npm-test.txt',
  'grep/dsh-grep-throw.txt',
  'code/read-ledger-rs.txt',
  'build/cargo-build.txt',
  'document/read-deploy-yaml.txt',
  'build/tsc-noemit.txt',
  'build/tsc-pretty.txt',
  'build/vitest-run.txt',
  'diff/git-diff.txt',
  'code/read-string-ts.txt',
  'build/pytest.txt',
  'grep/grep-rn-throw-new.txt',
  'code/read-pytest-main-py.txt',
  'gitlog/git-log-stat.txt',
  'listing/find-type-f.txt',
  'build/make-gcc.txt',
  'document/read-typesmap-json.txt',
  'build/pytest-v.txt',
  'git/git-blame-cart.txt',
  'grep/rg-n-require.txt',
  'code/read-range-js.txt',
  'diff/git-log-patch.txt',
  'listing/ls-lar-repo.txt',
  'document/read-semver-readme-md.txt',
  'grep/grep-rn-function-diff.txt',
  'table/cat-orders-csv.txt',
  'table/head-latency-tsv.txt',
  'build/npm-test-raw.txt',
  'code/read-tokenizer-js.txt',
  'diff/git-diff-range.txt',
  'table/ps-aux.txt',
  'code/read-pytest-python-py.txt',
  'build/cargo-build-raw.txt',
  'listing/find-node-modules.txt',
  'code/read-sqlite3-c-window.txt',
  'diff/git-diff-tag.txt',
  'build/vitest-run.txt',
] as const;

export interface Step {
  readonly file: string;
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly text: string;
}

interface ManifestEntry {
  readonly file: string;
  readonly tool: string;
  readonly command: string | null;
  readonly arguments: Record<string, unknown> | null;
}

export function sessionSteps(count: number = SESSION_FILES.length): Step[] {
  const manifest = JSON.parse(readFileSync(join(CORPUS, 'manifest.json'), 'utf8')) as { files: ManifestEntry[] };
  return SESSION_FILES.slice(0, count).map((file) => {
    const entry = manifest.files.find((f) => f.file === file)!;
    const args =
      entry.tool === 'bash' ? { command: entry.command ?? '', description: file } : { ...(entry.arguments ?? {}) };
    return { file, tool: entry.tool, args, text: readFileSync(join(CORPUS, file), 'utf8') };
  });
}

/**
 * Error and failing-test lines: the evidence a later step must still be able
 * to see. Written independently of squeeze's line classes, so the engine is
 * not graded by its own classifier.
 */
const EVIDENCE =
  /\berror\b|\bErrors?:|\w+Error\b|\bFAIL(?:ED)?\b|\bfailed\b|\bfailures?\b|panicked|^E\s{2,}\S|✗|×|\[exit code: [1-9]\d*\]/;
const NOT_EVIDENCE = /\b0 (?:errors?|failed|failures?)\b|no errors/i;

/** The evidence lines of the session's build and test outputs, trimmed, once each. */
export function evidenceLines(steps: readonly Step[]): { line: string; step: number }[] {
  const out = new Map<string, number>();
  steps.forEach((step, index) => {
    if (!step.file.startsWith('build/')) return;
    for (const raw of step.text.split('\n')) {
      const line = raw.trim();
      if (line.length >= 4 && line.length <= 400 && EVIDENCE.test(line) && !NOT_EVIDENCE.test(line) && !out.has(line))
        out.set(line, index);
    }
  });
  return [...out.entries()].map(([line, step]) => ({ line, step }));
}

export type Mode = 'none' | 'dsh' | 'squeeze' | 'engine' | 'engine+dsh';

export interface SessionRun {
  readonly harness: AgentHarness;
  /** Conversation requests, in order (without the summarizer's). */
  readonly requests: GenerateOptions[];
  /** Requests compaction-basic made to summarize (purpose `compaction`). */
  readonly summaryRequests: GenerateOptions[];
  /** The agent's session: its append-only log and surface. */
  readonly session: SessionView;
}

/** The parts of dsh-session's `Session` the tests read. */
export interface SessionView {
  readonly events: readonly {
    readonly seq: number;
    readonly type: string;
    readonly surfaceOp?: unknown;
    // biome-ignore lint/suspicious/noExplicitAny: payloads differ by event type; the tests read them loosely
    readonly data: any;
  }[];
  readonly surface: { readonly nodes: readonly number[] };
}

/** The text of every block of a message, as the provider would be sent it. */
export function messageText(message: GenerateOptions['messages'][number]): string {
  const parts: string[] = [];
  for (const block of message.content) {
    if (block.type === 'text' || block.type === 'reasoning') parts.push((block as { text: string }).text);
    else if (block.type === 'tool-call') parts.push(`${block.name}(${block.arguments})`);
    else if (block.type === 'tool-result')
      for (const inner of block.content) parts.push(inner.type === 'text' ? inner.text : `<${inner.type}>`);
  }
  return parts.join('\n');
}

/**
 * Runs the session one way. `dsh` mounts DSH's token meter, pruner and
 * compaction-basic (its summary is scripted: it quotes every evidence line of
 * the span it condenses, the best a real summary could do).
 */
export async function runSession(
  mode: Mode,
  steps: readonly Step[],
  options: { contextWindow: number; config?: Record<string, unknown> },
): Promise<SessionRun> {
  const requests: GenerateOptions[] = [];
  const summaryRequests: GenerateOptions[] = [];
  let calls = 0;
  const script = (all: readonly GenerateOptions[]) => {
    const request = all.at(-1)!;
    if (request.purpose === 'compaction') {
      summaryRequests.push(request);
      const quoted = request.messages
        .flatMap((m) => messageText(m).split('\n'))
        .map((l) => l.trim())
        .filter((l) => EVIDENCE.test(l) && !NOT_EVIDENCE.test(l));
      return {
        text: [
          '## Primary Request and Intent',
          '- fix the failing builds and tests',
          '## Errors and Fixes',
          ...[...new Set(quoted)].map((l) => `- ${l}`),
        ].join('\n'),
      };
    }
    requests.push(request);
    const step = steps[calls];
    if (step === undefined) return { text: 'All failures are understood; the fixes are next.' };
    calls++;
    return { calls: [{ name: step.tool, args: step.args }] };
  };
  let served = 0;
  let session: SessionView | undefined;
  const harness = await createAgentHarness(script, {
    contextWindow: options.contextWindow,
    beforeAgent: async (h) => {
      h.ctx.on('agent/pre-step', async (payload, next) => {
        session = payload.agent.session as unknown as SessionView;
        return next();
      });
      for (const tool of new Set(steps.map((s) => s.tool))) {
        h.ctx.tools.register(
          defineTool({
            name: tool,
            description: `corpus ${tool}`,
            parameters: {
              command: { type: 'string' },
              description: { type: 'string' },
              file_path: { type: 'string' },
              offset: { type: 'integer' },
              limit: { type: 'integer' },
              pattern: { type: 'string' },
              path: { type: 'string' },
              include: { type: 'string' },
            },
            output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value }] },
            async execute() {
              return steps[served++]!.text;
            },
          }) as never,
        );
      }
      if (mode === 'dsh' || mode === 'engine+dsh') await mountDshCompaction(h.ctx);
      if (mode !== 'none' && mode !== 'dsh') {
        await h.ctx.plugin(squeezePlugin(), {
          logFile: '',
          ...(mode === 'engine' || mode === 'engine+dsh' ? { contextEngine: true } : {}),
          ...options.config,
        });
      }
    },
  });
  await harness.say('The cart, stock and ledger builds fail. Find out why.');
  return { harness, requests, summaryRequests, session: session! };
}

/** Requests whose messages do not extend the previous request's: each breaks the provider's prefix cache. */
export function prefixBreaks(requests: readonly GenerateOptions[]): number {
  let breaks = 0;
  for (let i = 1; i < requests.length; i++) {
    const before = requests[i - 1]!.messages.map((m) => JSON.stringify(m.content));
    const after = requests[i]!.messages.map((m) => JSON.stringify(m.content));
    if (before.some((m, k) => after[k] !== m)) breaks++;
  }
  return breaks;
}

/**
 * The session's evidence lines that a request carries inline, or behind a
 * `<<<CCR:…>>>` marker naming an original that holds them; `missing` lists the rest.
 */
export function evidenceKept(request: GenerateOptions, steps: readonly Step[]) {
  const text = request.messages.map(messageText).join('\n');
  const lines = evidenceLines(steps);
  let inline = 0;
  let byMarker = 0;
  const missing: string[] = [];
  for (const { line } of lines) {
    if (text.includes(line)) inline++;
    else if (steps.some((s) => s.text.includes(line) && text.includes(`<<<CCR:${id24(s.text)}|`))) byMarker++;
    else missing.push(line);
  }
  return { total: lines.length, inline, byMarker, missing };
}

/** The 24-hex id squeeze's store gives an original. */
export const id24 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 24);
