// Read → edit through the real DSH tools (@deepseek-ai/dsh-tool-fs with the
// local file system and the observation policy) with squeeze in the tool
// pipeline: at every level, any line the model was shown can be the
// old_string of an edit, and the real `edit` tool accepts it.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { Context } from '@deepseek-ai/cordis';
import { LocalFileSystem } from '@deepseek-ai/dsh-fs-local';
import * as FsPolicy from '@deepseek-ai/dsh-fs-observation-policy';
import SystemPrompt from '@deepseek-ai/dsh-system-prompt';
import * as ToolFs from '@deepseek-ai/dsh-tool-fs';
import ToolRuntime from '@deepseek-ai/dsh-tools';
import { afterAll, describe, expect, it } from 'vitest';
import { squeezePlugin } from '../support/dsh-harness.js';

const ROOT = resolve(import.meta.dirname, '../..');
const FILES = [
  'test/fixtures/sources/inventory.py',
  'test/fixtures/sources/ringbuf.c',
  'test/fixtures/sources/tokenizer.rs',
  'test/fixtures/sources/deployment.yaml',
  'src/pipeline/index.ts',
  'src/processors/code-scan.ts',
  'package.json',
  'docs/ABI.md',
];
/** Shown lines tried per file and level, spread over the file (every one would be thousands of calls). */
const TRIES = 25;

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function workspace(level: 'lossless' | 'light' | 'aggressive') {
  const dir = mkdtempSync(join(tmpdir(), 'squeeze-read-edit-'));
  dirs.push(dir);
  for (const file of FILES) copyFileSync(join(ROOT, file), join(dir, basename(file)));
  const ctx = new Context();
  await ctx.plugin(SystemPrompt);
  await ctx.plugin(ToolRuntime);
  await ctx.plugin(LocalFileSystem, { cwd: dir });
  await ctx.plugin(FsPolicy);
  await ctx.plugin(ToolFs);
  await ctx.plugin(squeezePlugin(), { logFile: '', level, minTokens: 1, thresholdBytes: 1, inlineThresholdBytes: 1 });
  const agent = { session: { header: { id: `read-edit-${level}`, cwd: dir } } };
  let calls = 0;
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await ctx.tools.execute({
      callId: `${name}-${calls++}` as never, name, arguments: args, signal: new AbortController().signal, agent: agent as never,
    });
    const block = result.content[0] as { type: string; text?: string };
    return { isError: result.isError, text: block.type === 'text' ? block.text ?? '' : '' };
  };
  return { dir, call };
}

describe('read → edit with squeeze between the real DSH tools', () => {
  it.each(['lossless', 'light', 'aggressive'] as const)('at %s, every shown line taken as old_string edits the file', async (level) => {
    const { dir, call } = await workspace(level);
    for (const file of FILES.map((f) => basename(f))) {
      const original = readFileSync(join(dir, file), 'utf8');
      const shown = await call('read', { file_path: file });
      expect(shown.isError).toBe(false);
      if (level === 'lossless') expect(shown.text).not.toMatch(/^\[/m);
      else expect(shown.text, `${file} at ${level}`).toMatch(/^\[lines \d+–\d+: /m);
      const fileLines = original.split('\n');
      const candidates = shown.text.split('\n').flatMap((line) => {
        const m = /^(\d+): (.*)$/.exec(line);
        if (!m || m[2]!.trim().length < 3) return [];
        // A line that occurs twice in the file is no valid old_string for anyone.
        return original.split(m[2]!).length === 2 ? [{ number: Number(m[1]), text: m[2]! }] : [];
      });
      expect(candidates.length, file).toBeGreaterThan(0);
      const step = Math.max(1, Math.floor(candidates.length / TRIES));
      for (let k = 0; k < candidates.length; k += step) {
        const { number, text } = candidates[k]!;
        expect(fileLines[number - 1], `${file}:${number}`).toBe(text);
        await call('read', { file_path: file });
        const edit = await call('edit', { file_path: file, old_string: text, new_string: `${text}\u0020` });
        expect(edit.isError, `${file}:${number} ${edit.text}`).toBe(false);
        const now = readFileSync(join(dir, file), 'utf8').split('\n');
        expect(now[number - 1]).toBe(`${text}\u0020`);
      }
    }
  });
});
