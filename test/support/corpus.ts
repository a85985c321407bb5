// The shared corpus of real tool outputs, read in place (never copied in).
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const CORPUS_DIR = resolve(import.meta.dirname, '../../../shared/corpus');

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
        folder: folder.name, name: label.file, path,
        text: readFileSync(path, 'utf8'),
        needles: label.needles, type: label.type, tool: label.tool,
      });
    }
  }
  return files;
}
