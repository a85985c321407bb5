// Labelled samples for the fidelity evaluation: any folder holding
// `X.needles.json` files (the format of ../shared/corpus), searched recursively.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';

export interface Sample {
  /** Folder the sample belongs to, relative to the root it was found under (e.g. `loghub`). */
  readonly folder: string;
  readonly file: string;
  readonly type: string;
  readonly tool: string;
  readonly text: string;
  readonly needles: readonly string[];
  /** The shell command line that printed it, when the label names one (routing by command). */
  readonly command?: string;
}

export class SampleError extends Error {
  override readonly name = 'SampleError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

function labelFiles(dir: string, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) labelFiles(path, out);
    else if (entry.name.endsWith('.needles.json')) out.push(path);
  }
}

/** Every labelled sample under `root`, in a stable order. */
export function loadSamples(root: string): Sample[] {
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new SampleError(`not a folder: ${root}`);
  const labels: string[] = [];
  labelFiles(root, labels);
  return labels.map((labelPath) => {
    let label: { file: string; type: string; tool: string; needles: string[]; command?: string | null };
    try {
      label = JSON.parse(readFileSync(labelPath, 'utf8'));
    } catch (cause) {
      throw new SampleError(`unreadable label file ${labelPath}`, { cause });
    }
    const folder = relative(root, dirname(labelPath)) || basename(root);
    return {
      folder,
      file: label.file,
      type: label.type,
      tool: label.tool,
      needles: label.needles,
      text: readFileSync(join(dirname(labelPath), label.file), 'utf8'),
      ...(typeof label.command === 'string' ? { command: label.command } : {}),
    };
  });
}
