// squeeze as a DSH user runs it: the real `dsh` CLI (0.1.0-rc.8, installed
// from npm once into a cache folder, on Node 22 from npm), squeeze's npm
// tarball added with `dsh plugin --profile headless add -w`, the headless
// profile booted with a --patch that points the DeepSeek adapter at a
// scripted mock on 127.0.0.1. The task: `cat` a 2,000-line log whose 80 WARN
// lines sit in its first half, then `ccr_retrieve` a range, then answer. The
// same task with squeeze's row disabled is the baseline. Everything is checked
// from the requests the mock received, i.e. what the model was sent.
//
// Slow (a one-time install of about 450 packages, then two CLI runs), so it
// runs only with SQUEEZE_DSH_E2E=1, which .ci/run sets.
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepSeekCounter } from '../../src/eval/counters.js';
import { ensureDshCli, type DshCli } from '../support/dsh-cli.js';
import { messageText, startMockDeepSeek, type MockReply, type WireRequest } from '../support/mock-deepseek.js';
import { warnEvidence, warnLog, type WarnEvidence } from '../support/warn-log.js';

const ENABLED = process.env.SQUEEZE_DSH_E2E === '1';
const ROOT = resolve(import.meta.dirname, '../..');
const LOG_NAME = 'service.log';
const run = promisify(execFile);
const id24 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 24);
const count = (n: number) => n.toLocaleString('en-US');

const log = warnLog();
const logBytes = Buffer.byteLength(log.text);
const firstWarn = log.warnLines[0]!;

interface Run {
  readonly requests: WireRequest[];
  /** The requests of the conversation (the session-title request carries no tools). */
  readonly turns: WireRequest[];
  readonly stdout: string;
  readonly ms: number;
}

/** The reply script: bash on the log; then, when a marker came back, a ccr_retrieve range; then an answer. */
function script(request: WireRequest, all: readonly WireRequest[]): MockReply {
  if (!request.tools) return { text: 'Service log warnings' };
  const turn = all.filter((r) => r.tools).length;
  if (turn === 1)
    return { calls: [{ name: 'bash', args: { command: `cat ${LOG_NAME}`, description: 'Show the service log' } }] };
  const last = request.messages.at(-1);
  const marker = last?.role === 'tool' ? /<<<CCR:([0-9a-f]{24})\|/.exec(messageText(last)) : null;
  if (turn === 2 && marker) {
    return { calls: [{ name: 'ccr_retrieve', args: { hash: marker[1], range: { start: firstWarn, count: 3 } } }] };
  }
  return { text: 'The log has been read.' };
}

/** The last tool result in a request. */
function lastToolResult(request: WireRequest | undefined): string {
  const message = request?.messages.findLast((m) => m.role === 'tool');
  if (!message) throw new Error('no tool result in the request');
  return messageText(message);
}

/** Newest modification time under a folder. */
function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

describe.skipIf(!ENABLED)('the real dsh CLI, end to end (SQUEEZE_DSH_E2E=1)', () => {
  let cli: DshCli;
  let work: string;
  const timings: Record<string, number> = {};
  let baseline: Run;
  let squeezed: Run;

  function env(home: string): NodeJS.ProcessEnv {
    const { NODE_OPTIONS: _vitestOptions, ...inherited } = process.env;
    return { ...inherited, PATH: cli.path, DSH_HOME: home, DEEPSEEK_API_KEY: 'mock-key', TMPDIR: join(work, 'tmp') };
  }

  /** `dsh --profile headless --patch <patch> <task>` against a fresh mock. */
  async function task(home: string, patch: string): Promise<Run> {
    const mock = await startMockDeepSeek(script);
    const patchFile = join(work, `patch-${Object.keys(timings).length}.yml`);
    writeFileSync(patchFile, `- id: llm-deepseek\n  config:\n    baseURL: ${mock.baseURL}\n${patch}`);
    const started = performance.now();
    const child = spawn(
      cli.node,
      [cli.entry, '--profile', 'headless', '--patch', patchFile, 'Check the service log for warnings'],
      {
        cwd: join(work, 'project'),
        env: env(home),
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 110_000);
    const code = await new Promise<number | null>((done) => child.on('close', done));
    clearTimeout(killer);
    await mock.close();
    if (code !== 0) throw new Error(`dsh exited with ${code}:\n${stderr.slice(-4000)}`);
    return {
      requests: mock.requests,
      turns: mock.requests.filter((r) => r.tools),
      stdout,
      ms: performance.now() - started,
    };
  }

  beforeAll(async () => {
    if (newest(join(ROOT, 'src')) > statSync(join(ROOT, 'dist', 'dsh.js')).mtimeMs) {
      throw new Error('dist/ is older than src/: run `npm run build` first (npm test does)');
    }
    let started = performance.now();
    cli = await ensureDshCli();
    timings[cli.installed ? 'install (npm, once)' : 'install (cached)'] = performance.now() - started;
    work = mkdtempSync(join(tmpdir(), 'squeeze-dsh-e2e-'));
    for (const dir of ['project', 'home', 'tmp', 'pack']) mkdirSync(join(work, dir));
    writeFileSync(join(work, 'project', LOG_NAME), log.text);

    started = performance.now();
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', join(work, 'pack')], {
      cwd: ROOT,
      maxBuffer: 16 << 20,
    });
    const [pack] = JSON.parse(stdout) as [{ filename: string }];
    const home = join(work, 'home');
    // --ignore-scripts: nothing squeeze loads needs an install script (better-sqlite3 would compile for minutes).
    await run(
      cli.node,
      [
        cli.entry,
        'plugin',
        '--profile',
        'headless',
        'add',
        '-w',
        '--ignore-scripts',
        '--prefer-offline',
        '--store-dir',
        cli.pnpmStore,
        join(work, 'pack', pack.filename),
      ],
      { cwd: work, env: env(home), maxBuffer: 16 << 20 },
    );
    timings['npm pack + dsh plugin add'] = performance.now() - started;

    baseline = await task(home, '- id: squeeze\n  disabled: true\n');
    timings['task without squeeze'] = baseline.ms;
    squeezed = await task(home, '');
    timings['task with squeeze'] = squeezed.ms;
  }, 900_000);

  afterAll(async () => {
    if (work) rmSync(work, { recursive: true, force: true });
    if (!baseline || !squeezed) return;
    const tokens = await deepSeekCounter();
    const row = (name: string, r: Run) => {
      const shown = lastToolResult(r.turns[1]);
      const seen: WarnEvidence = warnEvidence(shown, log);
      return (
        `${name.padEnd(16)} ${count(Buffer.byteLength(shown)).padStart(8)} bytes ${tokens ? `${count(tokens.count(shown)).padStart(7)} tokens ` : ''}` +
        `WARN ${seen.inline + seen.counted}/80 (${seen.inline} shown, ${seen.counted} counted)`
      );
    };
    console.log(
      [
        `bash \`cat ${LOG_NAME}\` (${count(logBytes)} bytes, ${count(log.lines.length)} lines), the result the model was sent:`,
        row('without squeeze', baseline),
        row('with squeeze', squeezed),
        ...Object.entries(timings).map(([step, ms]) => `${step.padEnd(28)} ${(ms / 1000).toFixed(1)} s`),
      ].join('\n'),
    );
  });

  it('without squeeze, the model sees the harness tail: none of the 80 WARN lines', () => {
    expect(baseline.turns).toHaveLength(2);
    const shown = lastToolResult(baseline.turns[1]);
    expect(shown).toMatch(/\[output truncated; full output: [^\]\n]+\]/);
    const seen = warnEvidence(shown, log);
    expect(seen.inline + seen.counted).toBe(0);
  });

  it('with squeeze, the bash result is the whole log compressed: marker, full-output line, all 80 WARN lines', () => {
    expect(squeezed.turns).toHaveLength(3);
    const shown = lastToolResult(squeezed.turns[1]);
    expect(shown).toContain(`<<<CCR:${id24(log.text)}|terminal|${logBytes}>>>`);
    expect(shown).toMatch(
      new RegExp(
        `^\\[full output: ${count(logBytes)} bytes, ${count(log.lines.length)} lines; the harness had kept the last 64,000 bytes, from line [\\d,]+\\]$`,
        'm',
      ),
    );
    const seen = warnEvidence(shown, log);
    expect(seen.wrongRanges).toEqual([]);
    expect(seen.inline + seen.counted).toBe(log.warnLines.length);
    expect(Buffer.byteLength(shown)).toBeLessThan(Buffer.byteLength(lastToolResult(baseline.turns[1])));
  });

  it('the ccr_retrieve range returns exactly those lines of the log', () => {
    const range = lastToolResult(squeezed.turns[2]);
    expect(range).toBe(
      log.lines
        .slice(firstWarn - 1, firstWarn + 2)
        .map((line) => `${line}\n`)
        .join(''),
    );
    expect(squeezed.stdout).toContain('The log has been read.');
  });

  it('the system prompt and the other tools are what they are without squeeze; ccr_retrieve is added', () => {
    const [withSqueeze, without] = [squeezed.turns[0]!, baseline.turns[0]!];
    expect(withSqueeze.messages[0]).toEqual(without.messages[0]);
    expect(withSqueeze.messages[0]?.role).toBe('system');
    const names = (r: WireRequest) => (r.tools ?? []).map((t) => t.function.name);
    expect(names(withSqueeze)).toContain('ccr_retrieve');
    expect(names(without)).not.toContain('ccr_retrieve');
    expect((withSqueeze.tools ?? []).filter((t) => t.function.name !== 'ccr_retrieve')).toEqual(without.tools);
  });
});
