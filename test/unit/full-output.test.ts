// recoverFullOutput on results laid out as dsh-tool-bash renders them (its
// README: stdout tail, `[stderr]` and the stderr tail, then markers; a cut
// stream ends with `[output truncated; full output: PATH]`), with spill files
// laid out as dsh-subprocess-local writes them, in a temporary root standing
// in for os.tmpdir(). test/system/dsh-full-output.test.ts runs the real tool.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recoverFullOutput, type FullOutputOptions } from '../../src/adapters/dsh/full-output.js';
import { hasProgram } from '../support/system-program.js';

let root: string;
let folder: string;
let options: FullOutputOptions;
let files = 0;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'squeeze-full-output-'));
  folder = join(root, 'dsh-subprocess-AbC123');
  mkdirSync(folder, { mode: 0o700 });
  options = { maxBytes: 1 << 20, tmpdir: root, pid: process.pid };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A stream the harness cut: its spill file, and the tail of `keep` bytes it kept. */
function cutStream(full: string, keep: number, stream: 'stdout' | 'stderr' = 'stdout') {
  const path = join(folder, `dsh-subprocess-${process.pid}-${++files}-0a1b2c3d4e5f-${stream}.log`);
  writeFileSync(path, full);
  const bytes = Buffer.from(full);
  return { path, kept: bytes.subarray(bytes.length - keep).toString('utf8') };
}

/** dsh-tool-bash's layout of one result. */
function render(stdout: string, stderr = '', markers: string[] = []): string {
  let body = stdout;
  if (stderr.length > 0) body += `${body.length > 0 && !body.endsWith('\n') ? '\n' : ''}[stderr]\n${stderr}`;
  if (markers.length === 0) return body;
  return `${body}${body.endsWith('\n') ? '' : '\n'}${markers.join('\n')}`;
}
const truncated = (s: { path: string; kept: string }) => `${s.kept}\n[output truncated; full output: ${s.path}]`;
const numbered = (n: number, word = 'line') => Array.from({ length: n }, (_, i) => `${word} ${i + 1}\n`).join('');

describe('recoverFullOutput', () => {
  it('puts the whole stream in place of the tail and its notice, as the harness renders an uncut stream', async () => {
    const full = numbered(500);
    const out = cutStream(full, 1000);
    const result = await recoverFullOutput('bash', render(truncated(out), '', ['[exit code: 1]']), options);
    expect(result?.recovered).toBe(true);
    expect(result?.text).toBe(render(full, '', ['[exit code: 1]']));
    const fromLine = full.slice(0, full.length - 1000).split('\n').length;
    expect(result?.note).toBe(
      `[full output: ${Buffer.byteLength(full).toLocaleString('en-US')} bytes, 500 lines; the harness had kept the last 1,000 bytes, from line ${fromLine}]`,
    );
  });

  it('keeps the separating newline when the stream has no final one', async () => {
    const full = numbered(300).trimEnd();
    const out = cutStream(full, 500);
    const result = await recoverFullOutput('bash', render(truncated(out), 'boom\n', ['[exit code: 2]']), options);
    expect(result?.text).toBe(render(full, 'boom\n', ['[exit code: 2]']));
  });

  it('finds a cut stderr after the real [stderr] line, not after one the output printed', async () => {
    const stdout = 'prologue\n[stderr]\nnot the real one\n';
    const full = numbered(400, 'error');
    const err = cutStream(full, 700, 'stderr');
    const result = await recoverFullOutput('bash', render(stdout, truncated(err)), options);
    expect(result?.text).toBe(render(stdout, full));
    expect(result?.note).toMatch(/^\[full stderr: [\d,]+ bytes, 400 lines;/);
  });

  it('is not misled by a notice line the output itself contains', async () => {
    const printed = `${numbered(100)}[output truncated; full output: /tmp/dsh-subprocess-Zz9Zz9/dsh-subprocess-1-1-0a1b2c3d4e5f-stdout.log]\n`;
    const full = printed + numbered(200, 'after');
    const out = cutStream(full, 2500); // the kept tail holds the printed notice
    expect(out.kept).toContain('[output truncated;');
    const result = await recoverFullOutput('bash', render(truncated(out), '', ['[exit code: 1]']), options);
    expect(result?.text).toBe(render(full, '', ['[exit code: 1]']));
    expect(result?.note).toMatch(/^\[full output: [\d,]+ bytes, 301 lines; [^;]*\]$/);
  });

  it('recovers both streams', async () => {
    const fullOut = numbered(300);
    const fullErr = numbered(200, 'warning');
    const out = cutStream(fullOut, 400);
    const err = cutStream(fullErr, 300, 'stderr');
    const result = await recoverFullOutput('bash', render(truncated(out), truncated(err), ['[exit code: 1]']), options);
    expect(result?.text).toBe(render(fullOut, fullErr, ['[exit code: 1]']));
    expect(result?.note).toMatch(/^\[full output: .*; full stderr: .*\]$/);
  });

  it('checks a one-line tail cut inside a character', async () => {
    const full = 'é'.repeat(1000); // 2,000 bytes, no line break
    const out = cutStream(full, 999); // starts on the second byte of a character
    expect(out.kept.startsWith('\uFFFD')).toBe(true);
    const result = await recoverFullOutput('bash', render(truncated(out)), options);
    expect(result?.text).toBe(full);
    expect(result?.note).toContain('the harness had kept the last 999 bytes, from line 1]');
  });

  it('leaves a file that does not end with the kept tail alone (a notice the command printed itself)', async () => {
    const out = cutStream(numbered(100), 200);
    const forged = `${numbered(50, 'other')}[output truncated; full output: ${out.path}]`;
    const result = await recoverFullOutput('bash', forged, options);
    expect(result).toEqual({
      text: forged,
      recovered: false,
      note: `[full output not used: ${out.path} does not end with the output the harness kept; compressing the harness's tail]`,
    });
  });

  it.each([
    ['no file', () => '(unavailable)', 'the harness kept no full-output file'],
    ['another process', () => join(folder, 'dsh-subprocess-1-1-0a1b2c3d4e5f-stdout.log'), 'is outside this harness'],
    ['another folder', () => join(root, 'dsh-subprocess-1-1-0a1b2c3d4e5f-stdout.log'), 'is outside this harness'],
    ['a relative path', () => 'dsh-subprocess-1-1-0a1b2c3d4e5f-stdout.log', 'is not a plain absolute path'],
    [
      'a missing file',
      () => join(folder, `dsh-subprocess-${process.pid}-99-0a1b2c3d4e5f-stdout.log`),
      'cannot be read (ENOENT)',
    ],
  ])('falls back for %s', async (_case, path, reason) => {
    const text = `tail\n[output truncated; full output: ${path()}]`;
    const result = await recoverFullOutput('bash', text, options);
    expect(result?.recovered).toBe(false);
    expect(result?.text).toBe(text);
    expect(result?.note).toContain(reason);
  });

  it('falls back for a folder others can enter, a directory in place of the file, and a file over the cap', async () => {
    const out = cutStream(numbered(100), 200);
    const text = render(truncated(out));
    chmodSync(folder, 0o755);
    expect((await recoverFullOutput('bash', text, options))?.note).toContain('is not a private folder of this user');
    chmodSync(folder, 0o700);
    expect((await recoverFullOutput('bash', text, { ...options, maxBytes: 100 }))?.note).toContain(
      'over the 100-byte cap',
    );
    rmSync(out.path);
    mkdirSync(out.path);
    expect((await recoverFullOutput('bash', text, options))?.note).toContain('is not a regular file');
  });

  it('does nothing for other tools, results without a notice, or when turned off', async () => {
    const out = cutStream(numbered(100), 200);
    const text = render(truncated(out));
    expect(await recoverFullOutput('read', text, options)).toBeUndefined();
    expect(await recoverFullOutput('bash', numbered(10), options)).toBeUndefined();
    expect(await recoverFullOutput('bash', text, { ...options, maxBytes: 0 })).toBeUndefined();
  });

  it.skipIf(!hasProgram('mkfifo', 'a FIFO as a spill file'))(
    'a FIFO in place of the file is refused at once, never waited on for a writer',
    async () => {
      const out = cutStream(numbered(100), 200);
      rmSync(out.path);
      execFileSync('mkfifo', ['-m', '600', out.path]);
      const result = await recoverFullOutput('bash', render(truncated(out)), options);
      expect(result?.recovered).toBe(false);
      expect(result?.note).toContain('is not a regular file');
    },
  );

  it('a file system that never answers does not hold the call: past the deadline the harness tail is kept, and said', async () => {
    const out = cutStream(numbered(100), 200);
    const text = render(truncated(out), '', ['[exit code: 1]']);
    const never = () => new Promise<never>(() => {});
    const result = await recoverFullOutput('bash', text, { ...options, read: never, deadlineMs: 50 });
    expect(result).toEqual({
      text,
      recovered: false,
      note: `[full output not used: ${out.path} did not answer within 50 ms; compressing the harness's tail]`,
      lateMs: 50,
    });
  });
});
