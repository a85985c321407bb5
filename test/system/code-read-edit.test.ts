// Read → edit through the real DSH tools (@deepseek-ai/dsh-tool-fs with the
// local file system and the observation policy) with squeeze in the tool
// pipeline: at every level, any line the model was shown can be the
// old_string of an edit, and the real `edit` tool accepts it. Over the
// project's own sources and over every code read of the everyday corpus
// (test/corpus/everyday), recreated with the read's own arguments.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { squeezePlugin } from '../support/dsh-harness.js';
import { mountDshTools, type DshTools } from '../support/dsh-tools.js';
import { everydayFiles, type EverydayFile } from '../support/everyday.js';

const ROOT = resolve(import.meta.dirname, '../..');
const FILES = [
  'test/fixtures/sources/inventory.py',
  'test/fixtures/sources/ringbuf.c',
  'test/fixtures/sources/tokenizer.rs',
  'test/fixtures/sources/deployment.yaml',
  'src/pipeline/index.ts',
  'src/processors/code/scan.ts',
  'package.json',
  'docs/ABI.md',
];
/** Shown lines tried per file and level, spread over the file (every one would be thousands of calls). */
const TRIES = 25;
const LEVELS = ['lossless', 'light', 'aggressive'] as const;
type Level = (typeof LEVELS)[number];

const dirs: string[] = [];
const mounted: DshTools[] = [];
afterAll(async () => {
  for (const tools of mounted) await tools.dispose();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The tools over `cwd` (made by `populate` in a fresh temp folder) with squeeze at `level`. */
async function workspace(level: Level, populate: (root: string) => string = copyFixtures) {
  const root = mkdtempSync(join(tmpdir(), 'squeeze-read-edit-'));
  dirs.push(root);
  const dir = populate(root);
  const tools = await mountDshTools({
    cwd: dir,
    sessionId: `read-edit-${level}`,
    before: async (ctx) =>
      void (await ctx.plugin(squeezePlugin(), {
        logFile: '',
        level,
        minTokens: 1,
        thresholdBytes: 1,
        inlineThresholdBytes: 1,
      })),
  });
  mounted.push(tools);
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await tools.call(name, args);
    const block = result.content[0] as { type: string; text?: string };
    return { isError: result.isError, text: block.type === 'text' ? (block.text ?? '') : '' };
  };
  return { root, dir, call };
}

/** What the real read tool shows, without squeeze. */
async function realRead(cwd: string, args: Record<string, unknown>): Promise<string> {
  const raw = await mountDshTools({ cwd });
  try {
    return await raw.text('read', args);
  } finally {
    await raw.dispose();
  }
}

function copyFixtures(root: string): string {
  for (const file of FILES) copyFileSync(join(ROOT, file), join(root, basename(file)));
  return root;
}

type Call = Awaited<ReturnType<typeof workspace>>['call'];

/**
 * Takes up to TRIES shown lines of `file` (read with `args`) as old_string and
 * edits each through the real tool. A shown line is `N: text`, or squeeze's
 * `[line N cut to its first K of M characters: text]` and read's own
 * `N: text... (line truncated to 2000 chars)`, whose text is a line's start;
 * only text that occurs once in the file is a valid old_string for anyone.
 */
async function editShownLines(
  call: Call,
  path: string,
  file: string,
  args: Record<string, unknown>,
  shownText: string,
  tries = TRIES,
): Promise<number> {
  const original = readFileSync(path, 'utf8');
  const fileLines = original.split('\n');
  const candidates = shownText.split('\n').flatMap((line) => {
    // A minified line cut to its first characters is `N: <head>[… 1,204 chars cut …]` (docs/MARKERS.md).
    const m =
      /^(\d+): (.*?)\[… [\d,]+ chars cut …\]$/.exec(line) ??
      /^(\d+): (.*?)(?:\.\.\. \(line truncated to \d+ chars\))?$/.exec(line);
    if (!m || m[2]!.trim().length < 3) return [];
    return original.split(m[2]!).length === 2 ? [{ number: Number(m[1]), text: m[2]! }] : [];
  });
  expect(candidates.length, file).toBeGreaterThan(0);
  const step = Math.max(1, Math.floor(candidates.length / tries));
  let edited = 0;
  for (let k = 0; k < candidates.length; k += step) {
    const { number, text } = candidates[k]!;
    expect(fileLines[number - 1]!.startsWith(text), `${file}:${number}`).toBe(true);
    await call('read', args);
    const edit = await call('edit', { file_path: file, old_string: text, new_string: `${text}\u0020` });
    expect(edit.isError, `${file}:${number} ${edit.text}`).toBe(false);
    const now = readFileSync(path, 'utf8').split('\n');
    expect(now[number - 1]!.startsWith(`${text}\u0020`), `${file}:${number}`).toBe(true);
    edited++;
  }
  return edited;
}

describe('read → edit with squeeze between the real DSH tools', () => {
  it.each(LEVELS)('at %s, every shown line taken as old_string edits the file', async (level) => {
    const { dir, call } = await workspace(level);
    for (const file of FILES.map((f) => basename(f))) {
      const shown = await call('read', { file_path: file });
      expect(shown.isError).toBe(false);
      // a read within the read tool's window passes whole at lossless and light, even over the
      // ceiling (README.md, 43 KB); aggressive outlines it
      if (level === 'aggressive') expect(shown.text, `${file} at ${level}`).toMatch(/^\[… lines \d+–\d+ \(\d+\): /m);
      else expect(shown.text, `${file} at ${level}`).toBe(await realRead(dir, { file_path: file }));
      expect(await editShownLines(call, join(dir, file), file, { file_path: file }, shown.text)).toBeGreaterThan(0);
    }
  });
});

// ------------------------------------------------ the everyday corpus's code reads

/** The corpus's workspace as its reads show it: the repository at /tmp/work/shop, vendored C at /tmp/work/vendor. */
const SHOWN_ROOT = '/tmp/work';
const REPO = 'shop';
const MAIN_MODULES = join(ROOT, 'node_modules');

function pytestDir(): string | null {
  const out = spawnSync('python3', ['-c', 'import _pytest, os; print(os.path.dirname(_pytest.__file__))'], {
    encoding: 'utf8',
  });
  return out.status === 0 ? out.stdout.trim() : null;
}

/**
 * Where a read's file comes from: the installed package or Python module it
 * was copied from, or, for files the corpus script wrote (its git history
 * edits them), the corpus read itself when it shows the whole file untruncated.
 */
function recreate(entry: EverydayFile, pytest: string | null): string | { copy: string } | null {
  const path = String(entry.arguments!.file_path);
  if (path.startsWith('node_modules/')) return { copy: join(MAIN_MODULES, path.slice('node_modules/'.length)) };
  if (path === '../vendor/sqlite3.c') return { copy: join(MAIN_MODULES, 'better-sqlite3/deps/sqlite3/sqlite3.c') };
  const py = /^py\/\.venv\/lib\/python3\/site-packages\/_pytest\/(.+)$/.exec(path);
  if (py) return pytest ? { copy: join(pytest, py[1]!) } : null;
  const total = /\n\(End of file - total (\d+) lines\)\n<\/content>$/.exec(entry.text);
  if (!total || /\(line truncated to \d+ chars\)$/m.test(entry.text)) return null;
  const lines = [...entry.text.matchAll(/^(\d+): (.*)$/gm)].map((m) => m[2]!);
  return lines.length === Number(total[1]) ? `${lines.join('\n')}\n` : null;
}

/** Shown lines tried per corpus read and level (edits of the 9 MB sqlite3.c are slow). */
const EVERYDAY_TRIES = 8;

const everyday = everydayFiles().filter((e) => e.kind === 'code' && e.tool === 'read');
const recreated = new Set<string>();
const notRecreated: string[] = [];

function populateEveryday(root: string): string {
  const pytest = pytestDir();
  for (const entry of everyday) {
    const source = recreate(entry, pytest);
    const path = join(root, REPO, String(entry.arguments!.file_path));
    if (source === null || (typeof source !== 'string' && !existsSync(source.copy))) continue;
    mkdirSync(dirname(path), { recursive: true });
    if (typeof source === 'string') writeFileSync(path, source);
    else copyFileSync(source.copy, path);
  }
  return join(root, REPO);
}

describe('read → edit over the everyday corpus code reads', () => {
  // Files whose real read today equals the corpus's, so the corpus text is what the tool shows.
  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), 'squeeze-read-edit-'));
    dirs.push(root);
    const raw = await mountDshTools({ cwd: populateEveryday(root) });
    for (const entry of everyday) {
      if (!existsSync(join(root, REPO, String(entry.arguments!.file_path)))) {
        notRecreated.push(`${entry.file}: source not on this machine`);
        continue;
      }
      const shown = await raw.text('read', entry.arguments!);
      if (shown.split(root).join(SHOWN_ROOT) === entry.text) recreated.add(entry.file);
      else notRecreated.push(`${entry.file}: the installed file differs from the one the corpus read`);
    }
    await raw.dispose();
    if (notRecreated.length > 0) console.warn(`everyday code reads not recreated:\n${notRecreated.join('\n')}`);
  });

  it('recreates the corpus files: the real read with the manifest arguments gives the corpus text', () => {
    // the packages the corpus copied are the project's own, and its own files are shown whole
    expect([...recreated]).toEqual(
      expect.arrayContaining([
        'code/read-string-ts.txt',
        'code/read-typedarray-ts-window.txt',
        'code/read-range-js.txt',
        'code/read-tokenizer-js.txt',
        'code/read-diff-min-js.txt',
        'code/read-sqlite3-c-window.txt',
        'code/read-ledger-rs.txt',
        'code/read-cart-ts.txt',
      ]),
    );
  });

  it.each(LEVELS)(
    'at %s, shown lines of every recreated corpus read, taken as old_string, edit the file',
    async (level) => {
      expect(recreated.size).toBeGreaterThan(0);
      const { root, call } = await workspace(level, populateEveryday);
      for (const entry of everyday.filter((e) => recreated.has(e.file))) {
        const args = entry.arguments!;
        const file = String(args.file_path);
        const shown = await call('read', args);
        expect(shown.isError, entry.file).toBe(false);
        // byte-identical to the real read at lossless and light (every read is within the read window)
        const same = shown.text.split(root).join(SHOWN_ROOT) === entry.text;
        if (level !== 'aggressive') expect(same, `${entry.file} at ${level}`).toBe(true);
        if (!same) expect(shown.text, `${entry.file} at ${level}`).toMatch(/<<<CCR:[0-9a-f]{24}\|/);
        expect(
          await editShownLines(call, join(root, REPO, file), file, args, shown.text, EVERYDAY_TRIES),
          entry.file,
        ).toBeGreaterThan(0);
      }
    },
  );
});
