// What a user gets from the packed tarball, in a project of their own outside
// this one: `squeeze` imports from ESM and CommonJS and type-checks with tsc,
// `squeeze/dsh` type-checks and loads with the harness installed and says what
// to install without it, and the command tells its version. Nothing is
// downloaded: the tarball is unpacked into the consumer's node_modules by hand
// and its runtime `dependencies` (what npm would install) are linked from this
// project's node_modules. Packs what the last build made (`npm test` builds first).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  version: string;
  dependencies?: Record<string, string>;
};
const consumer = mkdtempSync(join(tmpdir(), 'squeeze-consumer-'));
const modules = join(consumer, 'node_modules');

function link(name: string): void {
  mkdirSync(dirname(join(modules, name)), { recursive: true });
  symlinkSync(join(root, 'node_modules', name), join(modules, name), 'dir');
}

/** Runs node in the consumer project; returns what it printed and its exit status. */
function node(args: string[]) {
  const run = spawnSync(process.execPath, args, { cwd: consumer, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Runs a compiled consumer file, which prints one JSON line. */
function output(file: string): unknown {
  const run = node([file]);
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

const files = {
  'package.json': JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  'tsconfig.json': JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      types: ['node'],
      outDir: 'out',
      rootDir: 'src',
    },
    include: ['src'],
  }),
  'src/esm.ts': `import { createSqueeze, createStore, type CompressResult } from 'squeeze';
const squeeze = createSqueeze({ store: createStore() });
const log = Array.from({ length: 3000 }, (_, i) => \`INFO request \${i} served\`).join('\\n') + '\\nERROR disk full on /var\\n';
const result: CompressResult = squeeze.compress(log, { toolName: 'bash' });
// Never called: the types are real, not \`any\`, so a wrong option is a compile error.
export function wrongOption() {
  // @ts-expect-error targetTokens is a number
  createSqueeze({ targetTokens: 'many' });
}
console.log(JSON.stringify({ smaller: result.bytesOut < result.bytesIn, kept: result.output.includes('ERROR disk full on /var'), back: result.id !== null && squeeze.store!.get(result.id).found }));
`,
  'src/cjs.cts': `import squeeze = require('squeeze');
const log = Array.from({ length: 3000 }, (_, i) => \`INFO request \${i} served\`).join('\\n') + '\\nERROR disk full on /var\\n';
const result = squeeze.createSqueeze({ store: squeeze.createStore() }).compress(log, { toolName: 'bash' });
console.log(JSON.stringify({ smaller: result.bytesOut < result.bytesIn, kept: result.output.includes('ERROR disk full on /var') }));
`,
  'src/dsh.ts': `import * as plugin from 'squeeze/dsh';
import type { PluginConfig } from 'squeeze/dsh';
const config: Partial<PluginConfig> = { targetTokens: 4000 };
const name: string = plugin.name;
console.log(JSON.stringify({ name, inject: plugin.inject, apply: typeof plugin.apply, targetTokens: plugin.Config(config).targetTokens }));
`,
};

beforeAll(() => {
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', consumer], {
    cwd: root,
    encoding: 'utf8',
  });
  const [pack] = JSON.parse(out) as [{ filename: string }];
  mkdirSync(join(modules, 'squeeze'), { recursive: true });
  execFileSync('tar', ['-xzf', join(consumer, pack.filename), '-C', join(modules, 'squeeze'), '--strip-components=1']);
  for (const name of [...Object.keys(manifest.dependencies ?? {}), 'typescript', '@types/node']) link(name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(consumer, path)), { recursive: true });
    writeFileSync(join(consumer, path), text);
  }
}, 120_000);

afterAll(() => rmSync(consumer, { recursive: true, force: true }));

describe('the packed package in a project of its own', () => {
  it('ships its licence, the declarations and the licences of what it bundles', () => {
    const pkg = JSON.parse(readFileSync(join(modules, 'squeeze', 'package.json'), 'utf8'));
    for (const entry of ['.', './dsh']) {
      expect(readFileSync(join(modules, 'squeeze', pkg.exports[entry].types), 'utf8')).toMatch(/export /);
    }
    expect(readFileSync(join(modules, 'squeeze', 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
    expect(readFileSync(join(modules, 'squeeze', 'dist', 'THIRD-PARTY-LICENSES.txt'), 'utf8')).toMatch(
      /^htmlparser2 /m,
    );
  });

  it('runs without the harness, and squeeze/dsh then names what to install', () => {
    expect(node(['-e', "import('squeeze').then((s) => console.log(typeof s.compress))"]).stdout).toBe('function\n');
    const dsh = node([
      '--input-type=module',
      '-e',
      `
      try { await import('squeeze/dsh'); } catch (error) {
        console.log(JSON.stringify({ name: error.name, message: error.message, cause: error.cause?.code }));
      }`,
    ]);
    expect(JSON.parse(dsh.stdout)).toEqual({
      name: 'DshMissingError',
      message: expect.stringContaining('npm install @deepseek-ai/dsh-tools @deepseek-ai/schemastery'),
      cause: 'ERR_MODULE_NOT_FOUND',
    });
  });

  it('type-checks and runs an ESM and a CommonJS consumer, and the plugin with the harness installed', () => {
    link('@deepseek-ai');
    const tsc = spawnSync(process.execPath, [join(modules, 'typescript', 'bin', 'tsc'), '-p', '.'], {
      cwd: consumer,
      encoding: 'utf8',
    });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
    expect(output('out/esm.js')).toEqual({ smaller: true, kept: true, back: true });
    expect(output('out/cjs.cjs')).toEqual({ smaller: true, kept: true });
    expect(output('out/dsh.js')).toEqual({ name: 'squeeze', inject: ['tools'], apply: 'function', targetTokens: 4000 });
  });

  it('keeps squeeze/dsh ESM-only: require() gets ERR_REQUIRE_ASYNC_MODULE, as the README says', () => {
    const required = node(['-e', "try { require('squeeze/dsh') } catch (error) { console.log(error.code) }"]);
    expect(required.stdout).toBe('ERR_REQUIRE_ASYNC_MODULE\n');
  });

  it('tells its version', () => {
    const cli = join(modules, 'squeeze', 'dist', 'cli.js');
    for (const flag of ['--version', '-V'])
      expect(node([cli, flag])).toMatchObject({ status: 0, stdout: `${manifest.version}\n` });
  });
});
