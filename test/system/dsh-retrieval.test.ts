// Issue 11 on the real harness tool pipeline (published @deepseek-ai/*
// packages, spill-policy at 50,000 bytes): every way back a notice names
// works, a retrieval over the inline cap comes in pages instead of being cut,
// and a retrieval makes the next results of that tool gentler.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import * as SpillPolicy from '@deepseek-ai/dsh-spill-policy';
import type { ServiceFactory } from '../../src/adapters/dsh/plugin.js';
import { backOffKey } from '../../src/adapters/dsh/back-off.js';
import type { Level } from '../../src/types.js';
import { spawnCli } from '../support/cli.js';
import { buildLog, CORE, createHarness, squeezePlugin, textOf, type Harness } from '../support/dsh-harness.js';

const id24 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 24);
const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
const CAP = 50_000;

let h: Harness;
afterEach(() => h?.close());

/** The real core, with the level of every compression it ran noted (tool name, level), and the level each call asked for. */
function spied(levels: [string, Level][], asked: (Level | 'auto')[] = []): ServiceFactory {
  return (config, options) => {
    const services = CORE(config, options);
    return {
      ...services,
      squeeze: {
        async compress(text, call) {
          const result = await services.squeeze.compress(text, call);
          asked.push(call.level ?? 'auto');
          if (result.outcome === 'compressed') levels.push([call.toolName, result.level]);
          return result;
        },
      },
    };
  };
}

async function setup(config: Record<string, unknown> = {}, factory: ServiceFactory = CORE, spillPolicy = true) {
  h = await createHarness({ spillPolicy });
  await h.ctx.plugin(squeezePlugin(factory), { logFile: '', ...config });
}

/** A tool whose every call returns the next of `texts`. */
function toolOf(name: string, texts: string[]): void {
  let call = 0;
  h.tool(name, () => [{ type: 'text', text: texts[Math.min(call++, texts.length - 1)] }]);
}

describe('every way back a DSH notice names works', () => {
  it('ccr_retrieve, the spill file and, with the default store, squeeze retrieve in a shell', async () => {
    await setup();
    const original = buildLog(900);
    h.tool('bash', original);
    const shown = textOf(await h.call('bash'));
    const id = id24(original);
    const hint = shown.split('\n').find((line) => line.startsWith('[original: '))!;
    expect(hint).toBe(
      `[original: ccr_retrieve {"hash":"${id}"} (+ "range":{"start":N,"count":N} or "grep":"P") | squeeze retrieve ${id} [--start N --count N] [--grep P]]`,
    );
    expect(textOf(await h.call('ccr_retrieve', { hash: id }))).toBe(original);
    // the whole marker pasted, in capitals
    expect(
      textOf(await h.call('ccr_retrieve', { hash: `<<<CCR:${id.toUpperCase()}|terminal|${bytes(original)}>>>` })),
    ).toBe(original);
    const spill = /^\[also saved: (\S+) \(/m.exec(shown)![1]!;
    expect(readFileSync(spill, 'utf8')).toBe(original);
    // A shell of the same user (the same cache folder) reaches the plugin's store.
    const cli = await spawnCli(['retrieve', id], { env: { XDG_CACHE_HOME: join(h.dir, 'cache') } });
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout.equals(Buffer.from(original))).toBe(true);
    const range = await spawnCli(['retrieve', id, '--start', '631', '--count', '2'], {
      env: { XDG_CACHE_HOME: join(h.dir, 'cache') },
    });
    expect(range.stdout.toString()).toBe(`${original.split('\n').slice(630, 632).join('\n')}\n`);
  });

  it('a store named by folder is named with --store; a store in memory is not offered to a shell', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'squeeze-named-store-'));
    const folder = join(parent, 'store');
    try {
      // Configured relative to the harness's working directory; named absolutely for a shell anywhere.
      await setup({ store: relative(process.cwd(), folder) });
      const original = buildLog(900);
      h.tool('bash', original);
      const shown = textOf(await h.call('bash'));
      expect(shown).toContain(`squeeze retrieve ${id24(original)} --store ${folder} [--start N`);
      const cli = await spawnCli(['retrieve', id24(original), '--store', folder]);
      expect(cli.stdout.equals(Buffer.from(original))).toBe(true);
      h.close();
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }

    await setup({ store: ':memory:' });
    const original = buildLog(900);
    h.tool('bash', original);
    const memory = textOf(await h.call('bash'));
    expect(memory).toContain(`ccr_retrieve {"hash":"${id24(original)}"}`);
    expect(memory).not.toContain('squeeze retrieve');
  });
});

describe('paging, not clipping', () => {
  it('a whole original over the 50,000-byte cap comes in pages of whole lines that add up to it, none cut by spill-policy', async () => {
    await setup();
    const original = buildLog(4000);
    expect(bytes(original)).toBeGreaterThan(4 * CAP);
    h.tool('bash', original);
    await h.call('bash');
    const id = id24(original);
    const lines = original.split('\n');
    const pieces: string[] = [];
    let range: { start: number; count: number } | undefined = { start: 1, count: lines.length };
    let first = true;
    while (range !== undefined) {
      const page = textOf(await h.call('ccr_retrieve', first ? { hash: id } : { hash: id, range }));
      first = false;
      expect(bytes(page)).toBeLessThanOrEqual(CAP);
      expect(page).not.toContain('Full formatted result stored at');
      const last = page.slice(page.lastIndexOf('\n', page.length - 2) + 1);
      const footer = /^\[lines ([\d,]+)–([\d,]+) of ([\d,]+); next: range \{"start": (\d+), "count": (\d+)\}\]$/.exec(
        last,
      );
      if (footer === null) {
        pieces.push(page);
        range = undefined;
        continue;
      }
      const [from, to, total] = [footer[1], footer[2], footer[3]].map((n) => Number(n!.replaceAll(',', '')));
      expect(from).toBe(range.start);
      expect(total).toBe(lines.length);
      expect(Number(footer[4])).toBe(to! + 1);
      expect(Number(footer[5])).toBe(lines.length - to!);
      const body = page.slice(0, page.length - last.length);
      expect(body).toBe(`${lines.slice(from! - 1, to).join('\n')}\n`);
      pieces.push(body);
      range = { start: Number(footer[4]), count: Number(footer[5]) };
    }
    expect(pieces.length).toBeGreaterThanOrEqual(Math.ceil(bytes(original) / CAP));
    expect(pieces.join('')).toBe(original);
  });

  it('a range over the cap pages within that range; one under the cap is its exact bytes', async () => {
    await setup();
    const original = buildLog(4000);
    h.tool('bash', original);
    await h.call('bash');
    const id = id24(original);
    const page = textOf(await h.call('ccr_retrieve', { hash: id, range: { start: 1001, count: 2000 } }));
    expect(bytes(page)).toBeLessThanOrEqual(CAP);
    const footer = /\[lines 1,001–([\d,]+) of ([\d,]+); next: range \{"start": (\d+), "count": (\d+)\}\]$/.exec(page)!;
    expect(footer).not.toBeNull();
    expect(footer[2]).toBe(original.split('\n').length.toLocaleString('en-US'));
    expect(Number(footer[3]) + Number(footer[4])).toBe(3001);
    expect(Number(footer[1]!.replaceAll(',', ''))).toBe(Number(footer[3]) - 1);
    const lines = original.split('\n');
    expect(textOf(await h.call('ccr_retrieve', { hash: id, range: { start: 1001, count: 20 } }))).toBe(
      `${lines.slice(1000, 1020).join('\n')}\n`,
    );
  });

  it('a line longer than a page: its head, how many of its bytes are missing, and the range of the rest', async () => {
    await setup();
    const long = `minified ${'x'.repeat(120_000)}\n`;
    const original = `${long}tail one\ntail two\n`;
    h.tool('bash', original);
    const shown = textOf(await h.call('bash'));
    expect(shown).toContain(`<<<CCR:${id24(original)}|`);
    const page = textOf(await h.call('ccr_retrieve', { hash: id24(original) }));
    expect(bytes(page)).toBeLessThanOrEqual(CAP);
    const footer =
      /\n\[line 1 of 3, its first ([\d,]+) of ([\d,]+) bytes \(a page holds no more\); next: range \{"start": 2, "count": 2\}\]$/.exec(
        page,
      )!;
    expect(footer).not.toBeNull();
    expect(Number(footer[2]!.replaceAll(',', ''))).toBe(bytes(long));
    const head = page.slice(0, page.length - footer[0].length);
    expect(long.startsWith(head)).toBe(true);
    expect(bytes(head)).toBe(Number(footer[1]!.replaceAll(',', '')));
    expect(textOf(await h.call('ccr_retrieve', { hash: id24(original), range: { start: 2, count: 2 } }))).toBe(
      'tail one\ntail two\n',
    );
  });

  it("pages stay under the loaded spill-policy's cap when it is smaller than retrievePageBytes", async () => {
    await setup({}, CORE, false);
    await h.ctx.plugin(SpillPolicy, { maxInlineBytes: 20_000 });
    const original = buildLog(4000);
    h.tool('bash', original);
    await h.call('bash');
    const page = textOf(await h.call('ccr_retrieve', { hash: id24(original) }));
    expect(bytes(page)).toBeLessThanOrEqual(20_000);
    expect(bytes(page)).toBeGreaterThan(19_000);
    expect(page).not.toContain('Full formatted result stored at');
    expect(page).toMatch(/\n\[lines 1–[\d,]+ of [\d,]+; next: range \{"start": \d+, "count": \d+\}\]$/);
  });

  it('retrievePageBytes: 0 turns paging off (then spill-policy caps the result as it does any other)', async () => {
    await setup({ retrievePageBytes: 0 });
    const original = buildLog(4000);
    h.tool('bash', original);
    await h.call('bash');
    expect(textOf(await h.call('ccr_retrieve', { hash: id24(original) }))).toContain('Full formatted result stored at');
  });
});

describe('back-off after a retrieval', () => {
  const logs = [1, 2, 3].map((seed) => buildLog(1500, seed));

  it('the next result of the retrieved tool is one level gentler; another tool is not; the ledger counts per tool', async () => {
    const levels: [string, Level][] = [];
    const asked: (Level | 'auto')[] = [];
    await setup({ level: 'aggressive', log: true }, spied(levels, asked));
    toolOf('bash', logs);
    toolOf('grep', logs);
    const first = textOf(await h.call('bash'));
    expect(levels).toEqual([['bash', 'aggressive']]);
    const id = /<<<CCR:([0-9a-f]{24})\|/.exec(first)![1]!;
    expect((await h.call('ccr_retrieve', { hash: id, range: { start: 1, count: 10 } })).isError).toBe(false);
    await h.call('bash');
    await h.call('grep');
    expect(levels.slice(1)).toEqual([
      ['bash', 'light'],
      ['grep', 'aggressive'],
    ]);
    expect(h.messages('info')).toContain(
      `ccr: retrieval 1 of bash results this session (${id}); next bash results at light`,
    );
    // A second regret goes one level further: light -> lossless.
    const second = textOf(await h.call('bash'));
    const lightId = /<<<CCR:([0-9a-f]{24})\|/.exec(second)?.[1];
    expect(lightId).toBeDefined();
    await h.call('ccr_retrieve', { hash: lightId! });
    const third = textOf(await h.call('bash'));
    expect(asked.at(-1)).toBe('lossless');
    // Lossless is over maxTokens for this log: the pipeline goes harsher, and the result says so.
    if (levels.at(-1)![1] !== 'lossless')
      expect(third).toMatch(/\[squeeze: level lossless not kept: its output is over maxTokens; applied /);
    expect(h.messages('info').filter((m) => m.startsWith('ccr: retrieval 2 of bash'))).toHaveLength(1);
  });

  it('is per session: another session keeps the configured level', async () => {
    const levels: [string, Level][] = [];
    await setup({ level: 'aggressive' }, spied(levels));
    toolOf('bash', logs);
    const id = /<<<CCR:([0-9a-f]{24})\|/.exec(textOf(await h.call('bash')))![1]!;
    await h.call('ccr_retrieve', { hash: id });
    await h.call('bash', {}, { agent: { session: { header: { id: 'another-session' } } } });
    expect(levels).toEqual([
      ['bash', 'aggressive'],
      ['bash', 'aggressive'],
    ]);
  });

  it('backOffAfterRetrieval: false changes nothing', async () => {
    const levels: [string, Level][] = [];
    await setup({ level: 'aggressive', backOffAfterRetrieval: false, log: true }, spied(levels));
    toolOf('bash', logs);
    const id = /<<<CCR:([0-9a-f]{24})\|/.exec(textOf(await h.call('bash')))![1]!;
    await h.call('ccr_retrieve', { hash: id });
    await h.call('bash');
    expect(levels).toEqual([
      ['bash', 'aggressive'],
      ['bash', 'aggressive'],
    ]);
    expect(h.messages('info').some((m) => m.startsWith('ccr: retrieval 1 of'))).toBe(false);
  });

  it('for bash, "the same tool" is the same program and subcommand', () => {
    expect(backOffKey('bash', 'npm test')).toBe('bash npm test');
    expect(backOffKey('bash', 'cd web && npm test 2>&1 | tail -50')).toBe('bash npm test');
    expect(backOffKey('bash', 'git diff HEAD~3')).toBe('bash git diff');
    expect(backOffKey('bash', 'git  log --oneline')).toBe('bash git log');
    expect(backOffKey('bash', 'pytest -x tests/unit')).toBe('bash pytest');
    expect(backOffKey('grep')).toBe('grep');
  });
});

describe("the notice's `squeeze retrieve` run through the bash tool", () => {
  it('comes back untouched (the fake bash returns the original, as the CLI prints it), however the CLI is named', async () => {
    await setup({ log: true });
    const original = buildLog(900);
    h.tool('bash', original);
    const shown = textOf(await h.call('bash', { command: 'npm test' }));
    const id = id24(original);
    expect(shown).toContain(`squeeze retrieve ${id}`);
    const commands = [
      `squeeze retrieve ${id}`,
      `npx squeeze retrieve ${id.toUpperCase()}`,
      `cd /work/app && ./node_modules/.bin/squeeze retrieve ${id} --start 1 --count 900`,
      `node /opt/squeeze/dist/cli.js retrieve '<<<CCR:${id}|log|${bytes(original)}>>>' 2>&1 | head -1000`,
      `/opt/squeeze/dist/cli.js retrieve ${id}; echo done`,
    ];
    for (const command of commands) expect(textOf(await h.call('bash', { command })), command).toBe(original);
    expect(h.messages('info').filter((m) => m === `ccr: retrieved ${id}`)).toHaveLength(commands.length);
    // Another squeeze command, or a retrieve that is not the last output, is compressed as any output is.
    expect(textOf(await h.call('bash', { command: `squeeze retrieve ${id} && npm test` }))).not.toBe(original);
    expect(textOf(await h.call('bash', { command: 'squeeze compress build.log' }))).not.toBe(original);
  });

  it('counts as a retrieval: the next results of the retrieved command are one level gentler; a failed run does not count', async () => {
    const levels: [string, Level][] = [];
    await setup({ level: 'aggressive', log: true }, spied(levels));
    const logs = [1, 2].map((seed) => buildLog(1500, seed));
    let call = 0;
    h.tool('bash', () => [{ type: 'text', text: logs[call++ % 2] }]);
    const first = textOf(await h.call('bash', { command: 'npm test' }));
    const id = /<<<CCR:([0-9a-f]{24})\|/.exec(first)![1]!;
    expect(levels).toEqual([['bash', 'aggressive']]);
    await h.call('bash', { command: `squeeze retrieve ${id}` });
    await h.call('bash', { command: 'npm test' });
    expect(levels).toEqual([
      ['bash', 'aggressive'],
      ['bash', 'light'],
    ]);
    expect(h.messages('info')).toContain(`ccr: retrieved ${id}`);
    expect(h.messages('info')).toContain(
      `ccr: retrieval 1 of bash results this session (${id}); next bash npm test results at light`,
    );

    await setup({ level: 'aggressive', log: true }, spied(levels.splice(0)));
    let failedCall = 0;
    h.tool('bash', () => [
      { type: 'text', text: failedCall++ === 1 ? 'squeeze: no original under that id\n[exit code: 3]' : logs[0] },
    ]);
    const again = textOf(await h.call('bash', { command: 'npm test' }));
    const sameId = /<<<CCR:([0-9a-f]{24})\|/.exec(again)![1]!;
    await h.call('bash', { command: `squeeze retrieve ${sameId}` });
    expect(h.messages('info').some((m) => m.startsWith('ccr: retrieved') || m.startsWith('ccr: retrieval'))).toBe(
      false,
    );
  });
});
