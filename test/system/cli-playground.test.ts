// `squeeze playground`: serves the built page on 127.0.0.1 at a free port,
// prints the URL on stdout, and stops on Ctrl-C (SIGINT) with exit status 0.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const MAIN = resolve(import.meta.dirname, '../../src/cli/main.ts');
const PAGE = resolve(import.meta.dirname, '../../dist/playground/index.html');

describe('squeeze playground', () => {
  it('serves dist/playground/index.html at the URL it prints until Ctrl-C, then exits 0', async () => {
    if (!existsSync(PAGE)) throw new Error(`${PAGE} is missing: run npm run build first`);
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'playground'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    try {
      const [url] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(Buffer.from(await page.arrayBuffer()).equals(readFileSync(PAGE))).toBe(true);
      expect((await fetch(new URL('/elsewhere', url))).status).toBe(404);
      expect((await fetch(url, { method: 'POST' })).status).toBe(405);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
    expect(stderr).toMatch(/Ctrl-C stops/);
  });

  it('takes no arguments and says so', async () => {
    const result = await runCli(['playground', 'extra']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^squeeze playground: unexpected argument "extra"/);
  });

  it('is in the command table', async () => {
    const result = await runCli(['--help']);
    expect(result.stdout.toString()).toMatch(/\n {2}playground +serve the playground page/);
  });
});
