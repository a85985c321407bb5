// `squeeze eval DIR` on a folder in the needles format the README documents,
// and its errors: one prefix, and no silent default outside the workspace.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { demoSample } from '../../src/demo/sample.js';

const CLI = resolve(import.meta.dirname, '../../dist/cli.js');
// Nested two deep, so that ../shared/corpus seen from `cwd` is inside this temporary folder.
const base = mkdtempSync(join(tmpdir(), 'squeeze-eval-'));
const cwd = join(base, 'work', 'clone');
mkdirSync(cwd, { recursive: true });
afterAll(() => rmSync(base, { recursive: true, force: true }));

const squeeze = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8' });

describe('squeeze eval', () => {
  it('measures a folder of labelled samples', () => {
    const needles = [
      'GHSA-8cf7-32gw-wr33',
      'Tests  2 failed | 598 passed (600)',
      'AssertionError: expected 107.99 to be 98.99',
    ];
    mkdirSync(join(cwd, 'samples', 'ci'), { recursive: true });
    writeFileSync(join(cwd, 'samples', 'ci', 'run.log'), demoSample());
    writeFileSync(
      join(cwd, 'samples', 'ci', 'run.needles.json'),
      JSON.stringify({ file: 'run.log', tool: 'bash', type: 'log', needles }),
    );
    const run = squeeze(['eval', 'samples']);
    expect(run.status, run.stderr).toBe(0);
    // | group | system | samples | tokens in | tokens out | reduction | needles | inline | lost | ...
    const row = run.stdout.split('\n').find((line) => line.startsWith('| folder ci | squeeze |'));
    const cells = row?.split('|').map((cell) => cell.trim());
    expect(cells?.[3]).toBe('1');
    expect(cells?.[7]).toBe(String(needles.length));
    expect(cells?.[9]).toBe('0');
  });

  it('asks for a folder when none is given and ../shared/corpus is not there', () => {
    const run = squeeze(['eval']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^squeeze eval: give a folder of labelled samples: squeeze eval DIR /);
    expect(run.stderr.match(/squeeze eval:/g)).toHaveLength(1);
  });

  it('names a folder that does not exist, once', () => {
    const run = squeeze(['eval', 'nowhere']);
    expect(run.status).toBe(4);
    expect(run.stderr).toBe(`squeeze eval: not a folder: ${join(cwd, 'nowhere')}\n`);
  });
});
