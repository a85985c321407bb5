// The everyday corpus is well-formed: the manifest lists exactly the files on
// disk, every file has needles that occur in it, every kind the issue names is
// there, and the held-out part follows its rule.
import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isHeldOut } from '../../scripts/corpus/held-out.js';
import { EVERYDAY_DIR, everydayFiles, everydayManifest } from '../support/everyday.js';

const manifest = everydayManifest();
const files = everydayFiles();

describe('everyday corpus', () => {
  it('lists exactly the outputs on disk, each in its kind folder', () => {
    const onDisk: string[] = [];
    for (const entry of readdirSync(EVERYDAY_DIR)) {
      if (!statSync(join(EVERYDAY_DIR, entry)).isDirectory()) continue;
      for (const name of readdirSync(join(EVERYDAY_DIR, entry)))
        if (name.endsWith('.txt')) onDisk.push(`${entry}/${name}`);
    }
    expect(manifest.files.map((f) => f.file).sort()).toEqual(onDisk.sort());
    for (const f of manifest.files) expect(f.file.startsWith(`${f.kind}/`)).toBe(true);
  });

  it('gives every file needles that occur in it verbatim', () => {
    for (const f of files) {
      expect(f.needleList.length, f.file).toBeGreaterThan(0);
      expect(f.needleList.length, f.file).toBe(f.needles);
      for (const needle of f.needleList) {
        expect(needle.length, `${f.file}: ${needle}`).toBeGreaterThanOrEqual(4);
        expect(f.text.includes(needle), `${f.file}: ${needle}`).toBe(true);
      }
      expect(Buffer.byteLength(f.text), f.file).toBe(f.bytes);
    }
  });

  it('records the DSH tool and the command that made each file', () => {
    for (const f of files) {
      expect(['read', 'grep', 'glob', 'bash'], f.file).toContain(f.tool);
      if (f.tool === 'bash') expect(f.command, f.file).toMatch(/\S/);
      else expect(f.arguments, f.file).not.toBeNull();
    }
  });

  it('holds every kind the issue names, reads in DSH read format', () => {
    const kinds = new Set(files.map((f) => f.kind));
    for (const kind of ['code', 'document', 'grep', 'listing', 'diff', 'gitlog', 'git', 'table', 'build'])
      expect(kinds).toContain(kind);
    const reads = files.filter((f) => f.tool === 'read');
    for (const f of reads) {
      expect(f.text, f.file).toMatch(/^<path>.*<\/path>\n<type>file<\/type>\n<content>\n1?\d*: /);
      expect(f.text.trimEnd().endsWith('</content>'), f.file).toBe(true);
    }
    const readPaths = reads.map((f) => String(f.arguments?.file_path));
    for (const ext of ['.ts', '.js', '.py', '.c', '.rs', '.json', '.yaml', '.md', '.min.js']) {
      expect(
        readPaths.some((p) => p.endsWith(ext)),
        ext,
      ).toBe(true);
    }
    // The real bash tool's framing, including its 64,000-byte truncation notice.
    expect(
      files.some((f) => f.tool === 'bash' && f.arguments && /\[output truncated; full output: \S+\]/.test(f.text)),
    ).toBe(true);
    expect(files.some((f) => f.tool === 'bash' && f.arguments && /\[exit code: \d+\]/.test(f.text))).toBe(true);
    // Matches inside a minified file.
    expect(files.some((f) => f.kind === 'grep' && /\.min\.js:\d+:/.test(f.text))).toBe(true);
  });

  it('holds out about a quarter by the hash rule, in most kinds', () => {
    for (const f of files) expect(f.heldOut, f.file).toBe(isHeldOut(basename(f.file, '.txt')));
    const share = files.filter((f) => f.heldOut).length / files.length;
    expect(share).toBeGreaterThan(0.15);
    expect(share).toBeLessThan(0.4);
  });

  it('leaks no path outside the scratch workspace', () => {
    // Reads quote source files, whose text may mention example home folders.
    for (const f of files) {
      if (f.tool !== 'read') expect(f.text, f.file).not.toMatch(/\/(root|home\/[\w.-]+|Users\/[\w.-]+)\//);
      expect(f.text, f.file).not.toMatch(/\/work\/(main|wt|shared)\b/);
    }
  });
});
