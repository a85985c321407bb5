// The pure-TypeScript backend: the oracle for the WebAssembly kernels, the
// fallback where WebAssembly is missing, and the benchmark's baseline.
import { groupLines, lineTable } from './lines.js';
import { repeatedBlocks, seenBlocks, windowHashes } from './repeats.js';
import { templateHashes, volatileFieldSpans } from './templates.js';
import type {
  Backend,
  BlockSpans,
  FieldSpans,
  Fingerprints,
  LineClasses,
  LineGroups,
  LineSpans,
  LineTable,
  LineTokens,
  SeenWindows,
  TextFeatures,
  WindowPlan,
  WindowRequest,
} from '../types.js';
import { estimateTokens, lineTokens } from './tokens.js';
import { classifyLines } from './classify.js';
import { planWindows } from './windows.js';
import { textFeatures } from './features.js';
import { fieldSpans } from './fields.js';
import { idMaskedHashes } from './ids.js';

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

  estimateTokens(costs: Int32Array): number {
    return estimateTokens(this.text, costs);
  }

  lineTokens(count: number, start: Int32Array, end: Int32Array, costs: Int32Array): LineTokens {
    return lineTokens(this.text, start, end, count, costs);
  }

  classifyLines(lines: LineSpans): LineClasses {
    return classifyLines(this.text, lines.count, lines.start, lines.end);
  }

  textFeatures(lines: LineTable, count: number, sample: number): TextFeatures {
    return textFeatures(this.text, lines.start, lines.end, count, sample);
  }

  planWindows(request: WindowRequest): WindowPlan {
    return planWindows(request);
  }

  fieldSpans(starts: Int32Array, ends: Int32Array, count: number, maxFields: number): FieldSpans {
    return fieldSpans(this.text, starts, ends, count, maxFields);
  }

  idMaskedHashes(starts: Int32Array, ends: Int32Array, count: number): Fingerprints {
    return idMaskedHashes(this.text, starts, ends, count);
  }

  volatileFields(starts: Int32Array, ends: Int32Array, count: number, most: number): FieldSpans {
    return volatileFieldSpans(this.text, starts, ends, count, most);
  }
}
