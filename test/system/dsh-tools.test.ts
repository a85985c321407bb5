// The real DSH tools mount and run (test/support/dsh-tools.ts): read, write,
// edit, grep, glob and bash, in a temp workspace.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountDshTools, type DshTools } from '../support/dsh-tools.js';
import { hasProgram } from '../support/system-program.js';

let dir: string;
let tools: DshTools;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'squeeze-dsh-tools-'));
  writeFileSync(join(dir, 'a.ts'), 'export function double(n: number): number {\n  return n * 2;\n}\n');
  tools = await mountDshTools({ cwd: dir });
});

afterAll(async () => {
  await tools.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('real DSH tools', () => {
  it('read returns numbered lines with the end-of-file footer', async () => {
    const text = await tools.text('read', { file_path: 'a.ts' });
    expect(text).toContain('<content>\n1: export function double(n: number): number {\n2:   return n * 2;');
    expect(text).toContain('(End of file - total 3 lines)');
  });

  it('edit changes a file after a read, write creates one', async () => {
    await tools.text('read', { file_path: 'a.ts' });
    const edit = await tools.call('edit', {
      file_path: 'a.ts',
      old_string: 'return n * 2;',
      new_string: 'return n + n;',
    });
    expect(edit.isError).toBe(false);
    expect(readFileSync(join(dir, 'a.ts'), 'utf8')).toContain('return n + n;');
    const write = await tools.call('write', { file_path: 'b.txt', content: 'hello\n' });
    expect(write.isError).toBe(false);
    expect(readFileSync(join(dir, 'b.txt'), 'utf8')).toBe('hello\n');
  });

  it.skipIf(!hasProgram('rg', 'DSH grep and glob tools'))('grep and glob run ripgrep in the workspace', async () => {
    expect(await tools.text('grep', { pattern: 'function double' })).toMatch(
      /^Found 1 match[\s\S]*a\.ts\nLine 1: export function double/,
    );
    expect((await tools.text('glob', { pattern: '**/*.ts' })).split('\n')).toContain('a.ts');
  });

  it('bash runs a command, reports the exit code and truncates past 64,000 bytes', async () => {
    expect(await tools.text('bash', { command: 'echo hi; exit 3', description: 'Print and fail' })).toMatch(
      /^hi\n[\s\S]*\[exit code: 3\]/,
    );
    const long = await tools.text('bash', { command: 'seq 1 40000', description: 'Print many lines' });
    expect(long).toMatch(/\n40000\n[\s\S]*\[output truncated; full output: \S+\]$/);
    expect(long).not.toMatch(/^1\n2\n/);
  });
});
