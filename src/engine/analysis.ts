// One text, analysed lazily: each kernel runs at most once, on one copy of the
// text, and its typed arrays are shared by every processor that asks.
import type { Backend, BackendName, LineClasses, LineGroups, LineTable } from './types.js';

export class TextAnalysis {
  private lineCache: LineTable | null = null;
  private exactCache: LineGroups | null = null;
  private classCache: LineClasses | null = null;

  constructor(readonly text: string, private readonly backend: Backend) {
    backend.begin(text);
  }

  /** The backend that answered (may change from wasm to js on a trap). */
  get backendName(): BackendName {
    return this.backend.name;
  }

  /** The backend, re-pointed at this text if another analysis used it since. */
  private get kernels(): Backend {
    if (this.backend.text !== this.text) this.backend.begin(this.text);
    return this.backend;
  }

  get lines(): LineTable {
    return (this.lineCache ??= this.kernels.lineTable());
  }

  /** Groups of byte-identical lines. */
  get exact(): LineGroups {
    const lines = this.lines;
    return (this.exactCache ??= this.kernels.groupLines(lines.count, lines.hashA, lines.hashB));
  }

  /** Per-line classes: severity and evidence flags (see flags.ts). */
  get classes(): LineClasses {
    const lines = this.lines;
    return (this.classCache ??= this.kernels.classifyLines(lines));
  }

  line(i: number): string {
    const lines = this.lines;
    return this.text.slice(lines.start[i], lines.end[i]);
  }
}
