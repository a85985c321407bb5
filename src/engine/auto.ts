// 'auto': WebAssembly where it loads and pays off, the twin otherwise. Small
// texts go to the twin (copy-in and call overhead dominate there, measured in
// bench/); a kernel that traps switches this engine to the twin for good and
// the same call is answered by the twin, so callers never see the trap.
import {
  checkBlockSize,
  checkLanes,
  checkLineBounds,
  checkLineRanges,
  checkFieldCount,
  checkMaxFields,
  checkWindowRequest,
  checkWindows,
} from './contract.js';
import type {
  Backend,
  BackendName,
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
} from './types.js';

/** Below this many UTF-16 units the twin is at least as fast: the crossover of a full log analysis is about 256 units, of lines + groups about 1K (bench/results.md). */
export const SMALL_TEXT_UNITS = 1024;

export class AutoBackend implements Backend {
  private active: Backend;
  text = '';
  private wasmBroken: unknown = null;
  /** Loaded on the first text big enough to need it (undefined: not tried yet; null: unavailable). */
  private wasm: Backend | null | undefined;

  /**
   * `loadWasm` is called once, on the first large text, so a process that only
   * sees small texts never compiles the module. `smallTextUnits`: texts
   * shorter than this go to the twin (kernels differ in where WASM pays).
   */
  constructor(
    private readonly loadWasm: () => Backend | null,
    private readonly js: Backend,
    private readonly smallTextUnits = SMALL_TEXT_UNITS,
  ) {
    this.active = js;
  }

  get name(): BackendName {
    return this.active.name;
  }

  /** Why WebAssembly stopped being used, if it did. */
  get failure(): unknown {
    return this.wasmBroken;
  }

  begin(text: string): void {
    this.text = text;
    const large = text.length >= this.smallTextUnits && !this.wasmBroken;
    if (large && this.wasm === undefined) this.wasm = this.loadWasm();
    this.active = large && this.wasm ? this.wasm : this.js;
    this.active.begin(text);
  }

  private run<T>(call: (backend: Backend) => T): T {
    // The WebAssembly backend is shared: another engine may have loaded its text since.
    if (this.active.text !== this.text) this.active.begin(this.text);
    if (this.active === this.js) return call(this.js);
    try {
      return call(this.active);
    } catch (cause) {
      this.wasmBroken = cause;
      this.active = this.js;
      this.js.begin(this.text);
      return call(this.js);
    }
  }

  lineTable(): LineTable {
    return this.run((b) => b.lineTable());
  }

  groupLines(count: number, hashA: Uint32Array, hashB: Uint32Array): LineGroups {
    return this.run((b) => b.groupLines(count, hashA, hashB));
  }

  // Bad arguments are checked here first: the RangeError must reach the
  // caller, not be taken for a WebAssembly failure.
  templateHashes(starts: Int32Array, ends: Int32Array, count: number): Fingerprints {
    checkLineRanges(this.text.length, starts, ends, count);
    return this.run((b) => b.templateHashes(starts, ends, count));
  }

  repeatedBlocks(count: number, hashA: Uint32Array, hashB: Uint32Array, minLines: number): BlockSpans {
    checkBlockSize(minLines);
    checkLanes(count, hashA, hashB);
    return this.run((b) => b.repeatedBlocks(count, hashA, hashB, minLines));
  }

  windowHashes(count: number, hashA: Uint32Array, hashB: Uint32Array, size: number): Fingerprints {
    checkBlockSize(size);
    checkLanes(count, hashA, hashB);
    return this.run((b) => b.windowHashes(count, hashA, hashB, size));
  }

  seenBlocks(windows: Fingerprints, size: number, seen: SeenWindows): BlockSpans {
    checkWindows(windows, size, seen);
    return this.run((b) => b.seenBlocks(windows, size, seen));
  }

  estimateTokens(costs: Int32Array): number {
    return this.run((b) => b.estimateTokens(costs));
  }

  lineTokens(count: number, start: Int32Array, end: Int32Array, costs: Int32Array): LineTokens {
    return this.run((b) => b.lineTokens(count, start, end, costs));
  }

  classifyLines(lines: LineSpans): LineClasses {
    checkLineBounds(lines.count, lines.start, lines.end);
    return this.run((b) => b.classifyLines(lines));
  }

  textFeatures(lines: LineTable, count: number, sample: number): TextFeatures {
    checkLineBounds(count, lines.start, lines.end);
    return this.run((b) => b.textFeatures(lines, count, sample));
  }

  planWindows(request: WindowRequest): WindowPlan {
    checkWindowRequest(request); // a RangeError must reach the caller, not count as a WebAssembly failure
    return this.run((b) => b.planWindows(request));
  }

  fieldSpans(starts: Int32Array, ends: Int32Array, count: number, maxFields: number): FieldSpans {
    checkLineRanges(this.text.length, starts, ends, count);
    checkMaxFields(maxFields);
    return this.run((b) => b.fieldSpans(starts, ends, count, maxFields));
  }

  volatileFields(starts: Int32Array, ends: Int32Array, count: number, most: number): FieldSpans {
    checkLineRanges(this.text.length, starts, ends, count);
    checkFieldCount(most);
    return this.run((b) => b.volatileFields(starts, ends, count, most));
  }

  idMaskedHashes(starts: Int32Array, ends: Int32Array, count: number): Fingerprints {
    checkLineRanges(this.text.length, starts, ends, count);
    return this.run((b) => b.idMaskedHashes(starts, ends, count));
  }
}
