// What users install: `npm pack` must hold the patch file, the built plugin,
// the CLI, the core, compressAsync's worker and the playground page (served by the packed CLI), and the plugin loaded from the unpacked tarball must
// work in a real harness Context. The tarball is unpacked inside the project
// so the packed code resolves the harness packages the way a host's would.
// Packs what the last build made (`npm test` builds first; `prepack` would build again).
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLog, createHarness, textOf } from '../support/dsh-harness.js';

const root = resolve(import.meta.dirname, '../..');
const unpacked = join(root, '.pack-test');
let files: string[] = [];

beforeAll(() => {
  rmSync(unpacked, { recursive: true, force: true });
  mkdirSync(unpacked, { recursive: true });
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', unpacked], {
    cwd: root,
    encoding: 'utf8',
  });
  const [pack] = JSON.parse(out) as [{ filename: string; files: { path: string }[] }];
  files = pack.files.map((f) => f.path);
  execFileSync('tar', ['-xzf', join(unpacked, pack.filename), '-C', unpacked]);
}, 120_000);

afterAll(() => rmSync(unpacked, { recursive: true, force: true }));

describe('the npm package', () => {
  it('holds the bundle patch, the plugin, the CLI, the core and the playground page', () => {
    for (const file of [
      'cordis.patch.yml',
      'dist/dsh.js',
      'dist/cli.js',
      'dist/index.js',
      'dist/worker.js',
      'dist/playground/index.html',
      'build/squeeze.wasm',
      'package.json',
      'README.md',
    ]) {
      expect(files).toContain(file);
    }
    const pkg = JSON.parse(readFileSync(join(unpacked, 'package', 'package.json'), 'utf8'));
    expect(pkg.dsh.bundle.patch).toBe('./cordis.patch.yml');
    expect(pkg.exports['./dsh'].default).toBe('./dist/dsh.js');
  });

  it('every relative link in its Markdown files resolves inside the tarball', () => {
    const docs = files.filter((f) => f.endsWith('.md'));
    expect(docs).toContain('README.md');
    const broken: string[] = [];
    for (const doc of docs) {
      const text = readFileSync(join(unpacked, 'package', doc), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(?:[a-z]+:|#)/i.test(target!)) continue;
        const path = posix.normalize(posix.join(dirname(doc), target!.replace(/#.*$/, '')));
        const held = files.includes(path) || files.some((f) => f.startsWith(`${path.replace(/\/$/, '')}/`));
        if (!held) broken.push(`${doc}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('serves its playground page with the packed CLI', async () => {
    const child = spawn(process.execPath, [join(unpacked, 'package', 'dist', 'cli.js'), 'playground'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const exited = once(child, 'close');
    try {
      const [url] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(await page.text()).toBe(
        readFileSync(join(unpacked, 'package', 'dist', 'playground', 'index.html'), 'utf8'),
      );
    } finally {
      child.kill('SIGINT');
    }
    expect((await exited)[0]).toBe(0);
  });

  it('loads its plugin from the unpacked tarball into a real Context and compresses', async () => {
    const plugin = await import(pathToFileURL(join(unpacked, 'package', 'dist', 'dsh.js')).href);
    expect(plugin.name).toBeTypeOf('string');
    expect(plugin.inject).toEqual(['tools']);
    // Without spill-policy: its 50,000-byte cap would also cut the whole-original retrieval.
    const h = await createHarness({ spillPolicy: false });
    try {
      await h.ctx.plugin(plugin);
      const log = buildLog(6000);
      h.tool('bash', log);
      const result = await h.call('bash');
      expect(result.isError).toBe(false);
      const text = textOf(result);
      const id = /<<<CCR:([0-9a-f]{24})\|terminal\|\d+>>>/.exec(text)?.[1];
      expect(id).toBeDefined();
      // Over the 50,000-byte inline cap: the first page of whole lines, and the range of the next.
      const back = textOf(await h.call('ccr_retrieve', { hash: id }));
      const page = /\n\[lines 1–([\d,]+) of ([\d,]+); next: range \{"start": (\d+), "count": (\d+)\}\]$/.exec(back);
      expect(page).not.toBeNull();
      const shown = Number(page![1]!.replaceAll(',', ''));
      expect(back.slice(0, back.length - page![0].length + 1)).toBe(`${log.split('\n').slice(0, shown).join('\n')}\n`);
      const range = await h.call('ccr_retrieve', { hash: id, range: { start: 11, count: 5 } });
      // Ranges keep their line breaks, so consecutive ranges rebuild the original.
      expect(textOf(range)).toBe(`${log.split('\n').slice(10, 15).join('\n')}\n`);
    } finally {
      h.close();
    }
  });
});
