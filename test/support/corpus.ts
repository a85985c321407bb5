// The shared corpus of real tool outputs, read in place (never copied in). It
// sits beside the clone on CI and in the project's workspace, not in a fresh
// clone: tests that read it skip themselves there, saying so in one line.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** `../shared/corpus` beside the clone, or wherever SQUEEZE_SHARED_CORPUS points (a worktree elsewhere). */
export const CORPUS_DIR = resolve(
  process.env.SQUEEZE_SHARED_CORPUS ?? resolve(import.meta.dirname, '../../../shared/corpus'),
);

export const sharedCorpusAvailable = existsSync(CORPUS_DIR);

/**
 * For `describe.skipIf` / `it.skipIf`: true when the shared corpus is absent,
 * after printing the one line that says what is skipped and why.
 */
export function skipWithoutSharedCorpus(what: string): boolean {
  if (sharedCorpusAvailable) return false;
  console.warn(
    `skipped: ${what} (needs the shared corpus, not found at ${CORPUS_DIR}; set SQUEEZE_SHARED_CORPUS to run it)`,
  );
  return true;
}

export interface CorpusFile {
  folder: string;
  name: string;
  path: string;
  text: string;
  needles: string[];
  type: 'log' | 'json' | 'html' | 'text';
  tool: string;
}

export function corpusFiles(): CorpusFile[] {
  if (!existsSync(CORPUS_DIR)) throw new Error(`corpus not found at ${CORPUS_DIR}`);
  const files: CorpusFile[] = [];
  for (const folder of readdirSync(CORPUS_DIR, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    const dir = join(CORPUS_DIR, folder.name);
    for (const name of readdirSync(dir).sort()) {
      if (!name.endsWith('.needles.json')) continue;
      const label = JSON.parse(readFileSync(join(dir, name), 'utf8'));
      const path = join(dir, label.file);
      files.push({
        folder: folder.name,
        name: label.file,
        path,
        text: readFileSync(path, 'utf8'),
        needles: label.needles,
        type: label.type,
        tool: label.tool,
      });
    }
  }
  return files;
}
