// The full output behind the harness's bash cap, with the real bash tool
// (dsh-tool-bash on dsh-bash-local and dsh-subprocess-local, which keep the
// last 64,000 bytes per stream and name the spill file holding the rest) and
// the real tool pipeline. `cat` of a 2,000-line log whose 80 WARN lines are in
// its first half: the harness alone shows none of them; squeeze reads the
// harness's file and shows or counts them all, and ccr_retrieve ranges address
// the log's own lines. Every case the file cannot be trusted keeps the tail and
// says why.
import { createHash } from 'node:crypto';
import { copyFileSync, readdirSync, renameSync, rmdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Context } from '@deepseek-ai/cordis';
import LocalBash from '@deepseek-ai/dsh-bash-local';
import * as ShellEnv from '@deepseek-ai/dsh-shell-env';
import LocalSubprocess from '@deepseek-ai/dsh-subprocess-local';
import * as ToolBash from '@deepseek-ai/dsh-tool-bash';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createHarness, squeezePlugin, textOf, type Harness } from '../support/dsh-harness.js';
import { warnEvidence, warnLog } from '../support/warn-log.js';

const HARNESS_KEEPS = 64_000; // dsh-bash-local's maxOutputBytes default
const NOTICE = /\n\[output truncated; full output: ([^\n]+)\]/;
const id24 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 24);
const count = (n: number) => n.toLocaleString('en-US');

const log = warnLog();
const logBytes = Buffer.byteLength(log.text);
/** The line holding the first byte the harness keeps (the log is ASCII: characters are bytes). */
const firstKeptLine = log.text.slice(0, logBytes - HARNESS_KEEPS).split('\n').length;

let h: Harness | undefined;
afterEach(() => h?.close());

// The harness never deletes its spill files: remove the ones this process's bash calls wrote.
afterAll(() => {
  for (const folder of readdirSync(tmpdir()).filter((name) => /^dsh-subprocess-[A-Za-z0-9]{6}$/.test(name))) {
    const dir = join(tmpdir(), folder);
    try {
      const files = readdirSync(dir);
      const ours = files.filter((file) => file.startsWith(`dsh-subprocess-${process.pid}-`));
      for (const file of ours) rmSync(join(dir, file), { force: true });
      if (ours.length > 0 && ours.length === files.length) rmdirSync(dir);
    } catch {
      // another user's or another process's folder
    }
  }
});

/** The real tool pipeline with the real bash tool, mounted as DSH mounts it, and squeeze when `config` is given. */
async function bashHarness(
  config?: object,
  inner?: (ctx: Context) => void,
): Promise<{ h: Harness; cat: () => Promise<string> }> {
  const harness = await createHarness();
  const { ctx } = harness;
  await ctx.plugin(ShellEnv);
  await ctx.plugin(LocalSubprocess);
  await ctx.plugin(LocalBash, {});
  await ctx.plugin(ToolBash, {});
  if (config) await ctx.plugin(squeezePlugin(), { logFile: '', ...config });
  inner?.(ctx); // registered after squeeze: runs inside it, between the tool and squeeze
  const path = join(harness.dir, 'service.log');
  writeFileSync(path, log.text);
  h = harness;
  const cat = async () =>
    textOf(
      await harness.call('bash', { command: `cat ${path}`, description: 'show the service log', workdir: harness.dir }),
    );
  return { h: harness, cat };
}

/** An inner post-execute listener that does something to the spill file (or the notice) before squeeze sees the result. */
// biome-ignore lint/suspicious/noConfusingVoidType: a change that only acts on the file returns nothing; one that edits the notice returns it
function tamper(change: (path: string, text: string) => string | void) {
  return (ctx: Context) =>
    ctx.on('tools/post-execute', async (exec, result, next) => {
      const decision = await next();
      const text = textOf(result);
      const path = NOTICE.exec(text)?.[1];
      if (exec.name !== 'bash' || path === undefined) return decision;
      const changed = change(path, text);
      return changed === undefined ? decision : { kind: 'accept', content: [{ type: 'text', text: changed }] };
    });
}

describe('the full output behind the bash cap, with the real bash tool', () => {
  it('without squeeze the model gets the last 64,000 bytes: none of the 80 WARN lines', async () => {
    const { cat } = await bashHarness();
    const shown = await cat();
    expect(shown).toMatch(NOTICE);
    const seen = warnEvidence(shown, log);
    expect(seen.inline + seen.counted).toBe(0);
  });

  it('with squeeze: the whole log compressed, all 80 WARN lines shown or counted, one line saying so', async () => {
    const { h, cat } = await bashHarness({});
    const shown = await cat();
    expect(shown).toContain(
      `[full output: ${count(logBytes)} bytes, ${count(log.lines.length)} lines; the harness had kept the last ${count(HARNESS_KEEPS)} bytes, from line ${count(firstKeptLine)}]`,
    );
    // The stored original is the log itself, byte for byte: the marker names its id and size.
    expect(shown).toContain(`<<<CCR:${id24(log.text)}|terminal|${logBytes}>>>`);
    const seen = warnEvidence(shown, log);
    expect(seen.wrongRanges).toEqual([]);
    expect(seen.inline + seen.counted).toBe(log.warnLines.length);
    expect(Buffer.byteLength(shown)).toBeLessThan(HARNESS_KEEPS);

    // Ranges count the log's lines, from 1 like the markers.
    const first = log.warnLines[0]!;
    const range = await h.call('ccr_retrieve', { hash: id24(log.text), range: { start: first, count: 3 } });
    expect(range.isError).toBe(false);
    expect(textOf(range)).toBe(
      log.lines
        .slice(first - 1, first + 2)
        .map((line) => `${line}\n`)
        .join(''),
    );
  });

  it('a symlink in place of the spill file is not followed: the tail is compressed, and the line says why', async () => {
    let spill = '';
    const { cat } = await bashHarness(
      {},
      tamper((path) => {
        spill = path;
        renameSync(path, `${path}.moved`);
        symlinkSync(`${path}.moved`, path);
      }),
    );
    const shown = await cat();
    expect(shown).toContain(`[full output not used: ${spill} is a symlink; compressing the harness's tail]`);
    expect(warnEvidence(shown, log).inline + warnEvidence(shown, log).counted).toBe(0);
    expect(shown).not.toContain(`|${logBytes}>>>`);
  });

  it('a path outside the harness temporary area (another executor) is not read', async () => {
    const elsewhere = () => join(h!.dir, 'dsh-subprocess-1-1-0123456789ab-stdout.log');
    const { cat } = await bashHarness(
      {},
      tamper((path, text) => {
        copyFileSync(path, elsewhere());
        return text.replace(path, elsewhere());
      }),
    );
    const shown = await cat();
    expect(shown).toContain(
      `[full output not used: ${elsewhere()} is outside this harness's temporary area; compressing the harness's tail]`,
    );
    expect(shown).not.toContain(`|${logBytes}>>>`);
  });

  it('a file over fullOutputMaxBytes is not read', async () => {
    let spill = '';
    const { cat } = await bashHarness(
      { fullOutputMaxBytes: 100_000 },
      tamper((path) => void (spill = path)),
    );
    const shown = await cat();
    expect(shown).toContain(
      `[full output not used: ${spill} holds ${count(logBytes)} bytes, over the 100,000-byte cap; compressing the harness's tail]`,
    );
    expect(shown).not.toContain(`|${logBytes}>>>`);
  });

  it('fullOutputMaxBytes 0 turns it off: today’s behaviour, no line', async () => {
    const { cat } = await bashHarness({ fullOutputMaxBytes: 0 });
    const shown = await cat();
    expect(shown).not.toContain('[full output');
    expect(shown).toMatch(NOTICE);
    expect(shown).toMatch(/<<<CCR:[0-9a-f]{24}\|terminal\|\d+>>>/);
  });
});
