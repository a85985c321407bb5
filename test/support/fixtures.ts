// Fixture files of real output shapes. A line `@@repeat N: template@@` expands
// to N lines with {i} = 1..N (and `\n` in the template to a line break), so a
// fixture states the shape of the noise without carrying thousands of lines.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const FIXTURES = resolve(import.meta.dirname, '../fixtures');

export function expand(source: string): string {
  return source.replace(/^@@repeat (\d+): (.*)@@$/gm, (_, n: string, template: string) =>
    Array.from({ length: Number(n) }, (_, i) => template.replaceAll('{i}', String(i + 1)).replaceAll('\\n', '\n')).join(
      '\n',
    ),
  );
}

export interface Fixture {
  readonly name: string;
  readonly text: string;
  /** Strings the compressed output must keep verbatim. */
  readonly keep: readonly string[];
}

/** Every `<name>.<ext>` with a `<name>.keep.json` beside it in test/fixtures/<folder>. */
export function fixtures(folder: string): Fixture[] {
  const dir = join(FIXTURES, folder);
  return readdirSync(dir)
    .filter((file) => !file.endsWith('.json'))
    .sort()
    .map((file) => {
      const name = file.replace(/\.[^.]+$/, '');
      return {
        name,
        text: expand(readFileSync(join(dir, file), 'utf8')),
        keep: JSON.parse(readFileSync(join(dir, `${name}.keep.json`), 'utf8')),
      };
    });
}
