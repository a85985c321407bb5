// The pure-TypeScript backend: the oracle for the WebAssembly kernels, the
// fallback where WebAssembly is missing, and the benchmark's baseline.
import type {
  Backend, BlockSpans, Fingerprints, LineClasses, LineGroups, LineTable, SeenWindows, WindowPlan, WindowRequest,
} from '../types.js';
import { classifyLines } from './classify.js';
import { groupLines, lineTable } from './lines.js';
import { repeatedBlocks, seenBlocks, windowHashes } from './repeats.js';
import { templateHashes } from './templates.js';
import { planWindows } from './windows.js';

export class JsBackend implements Backend {
  readonly name = 'js' as const;
  text = '';

  begin(text: string): void {
    this.text = text;
  }

  lineTable(): LineTable {
    return lineTable(this.text);
  }

  groupLines(count: number, hashA: Uint32Array, hashB: Uint32Array): LineGroups {
    return groupLines(count, hashA, hashB);
  }

  // --- templates and repetition ---
  templateHashes(starts: Int32Array, ends: Int32Array, count: number): Fingerprints {
    return templateHashes(this.text, starts, ends, count);
  }

  repeatedBlocks(count: number, hashA: Uint32Array, hashB: Uint32Array, minLines: number): BlockSpans {
    return repeatedBlocks(count, hashA, hashB, minLines);
  }

  windowHashes(count: number, hashA: Uint32Array, hashB: Uint32Array, size: number): Fingerprints {
    return windowHashes(count, hashA, hashB, size);
  }

  seenBlocks(windows: Fingerprints, size: number, seen: SeenWindows): BlockSpans {
    return seenBlocks(windows, size, seen);
  }
  // --- end templates and repetition ---

  // --- classify and windows ---
  classifyLines(lines: LineTable): LineClasses {
    return classifyLines(this.text, lines.count, lines.start, lines.end);
  }

  planWindows(request: WindowRequest): WindowPlan {
    return planWindows(request);
  }
  // --- end classify and windows ---
}
