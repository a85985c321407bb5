// The WebAssembly backend: every method copies its array inputs in, calls one
// kernel, and copies numbers and spans out. The text is copied in once by
// `begin` and stays below the arena mark until the next `begin`.
import {
  checkBlockSize,
  checkLanes,
  checkLineBounds,
  checkLineRanges,
  checkFieldCount,
  checkMaxFields,
  checkWindowRequest,
  checkWindows,
  maxBlocks,
  repeatsTableSize,
  tableSizeFor,
  volatileFieldsBound,
} from '../contract.js';
import { DELIMITERS } from '../contract.js';
import { SEVERITY_COUNT } from '../flags.js';
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
import { Arena, type WasmExports } from './runtime.js';

export class WasmBackend implements Backend {
  readonly name = 'wasm' as const;
  private readonly arena: Arena;
  private textPtr = 0;
  private textLen = 0;
  text = '';

  constructor(private readonly exports: WasmExports) {
    this.arena = new Arena(exports);
  }

  begin(text: string): void {
    // Already in memory (the estimator and the analysis of one result share it):
    // scoped allocations never outlive a call, so the text region is intact.
    if (text === this.text) return;
    this.arena.reset();
    this.text = '';
    this.textPtr = this.arena.writeText(text);
    this.textLen = text.length;
    this.text = text;
  }

  /** Runs `body` with scratch allocations released afterwards. */
  private scoped<T>(body: (arena: Arena) => T): T {
    const mark = this.arena.mark();
    try {
      return body(this.arena);
    } finally {
      this.arena.release(mark);
    }
  }

  lineTable(): LineTable {
    return this.scoped((arena) => {
      const count = this.exports.count_lines(this.textPtr, this.textLen);
      const bytes = count * 4;
      const start = arena.alloc(bytes);
      const end = arena.alloc(bytes);
      const hashA = arena.alloc(bytes);
      const hashB = arena.alloc(bytes);
      this.exports.lines(this.textPtr, this.textLen, start, end, hashA, hashB);
      return {
        count,
        start: arena.readI32(start, count),
        end: arena.readI32(end, count),
        hashA: arena.readU32(hashA, count),
        hashB: arena.readU32(hashB, count),
      };
    });
  }

  groupLines(count: number, hashA: Uint32Array, hashB: Uint32Array): LineGroups {
    return this.scoped((arena) => {
      const a = arena.writeArray(hashA);
      const b = arena.writeArray(hashB);
      const group = arena.alloc(count * 4);
      const size = arena.alloc(count * 4);
      const tableSize = tableSizeFor(count);
      const table = arena.alloc(tableSize * 4);
      const distinct = this.exports.group_lines(count, a, b, group, size, table, tableSize);
      return { group: arena.readI32(group, count), size: arena.readI32(size, count), distinct };
    });
  }

  templateHashes(starts: Int32Array, ends: Int32Array, count: number): Fingerprints {
    return this.maskedHashes(this.exports.template_hashes, starts, ends, count);
  }

  /** A kernel fingerprinting each line [starts[i], ends[i]) masked in `scratch` (templates, id-masked shapes). */
  private maskedHashes(
    kernel: WasmExports['template_hashes'],
    starts: Int32Array,
    ends: Int32Array,
    count: number,
  ): Fingerprints {
    const longest = checkLineRanges(this.textLen, starts, ends, count);
    return this.scoped((arena) => {
      const s = arena.writeArray(starts.subarray(0, count));
      const e = arena.writeArray(ends.subarray(0, count));
      const a = arena.alloc(count * 4);
      const b = arena.alloc(count * 4);
      const scratch = arena.alloc(longest * 2);
      kernel(this.textPtr, s, e, count, a, b, scratch);
      return { hashA: arena.readU32(a, count), hashB: arena.readU32(b, count) };
    });
  }

  repeatedBlocks(count: number, hashA: Uint32Array, hashB: Uint32Array, minLines: number): BlockSpans {
    checkBlockSize(minLines);
    checkLanes(count, hashA, hashB);
    return this.scoped((arena) => {
      const a = arena.writeArray(hashA.subarray(0, count));
      const b = arena.writeArray(hashB.subarray(0, count));
      const bound = maxBlocks(count, minLines);
      const start = arena.alloc(bound * 4);
      const lines = arena.alloc(bound * 4);
      const source = arena.alloc(bound * 4);
      const tableSize = repeatsTableSize(count >= minLines ? count - minLines + 1 : 0);
      const table = arena.alloc(tableSize * 8);
      const blocks = this.exports.repeated_blocks(count, a, b, minLines, start, lines, source, table, tableSize);
      return this.spans(arena, blocks, start, lines, source);
    });
  }

  windowHashes(count: number, hashA: Uint32Array, hashB: Uint32Array, size: number): Fingerprints {
    checkBlockSize(size);
    checkLanes(count, hashA, hashB);
    return this.scoped((arena) => {
      const windows = count >= size ? count - size + 1 : 0;
      const a = arena.writeArray(hashA.subarray(0, count));
      const b = arena.writeArray(hashB.subarray(0, count));
      const outA = arena.alloc(windows * 4);
      const outB = arena.alloc(windows * 4);
      this.exports.window_hashes(count, a, b, size, outA, outB);
      return { hashA: arena.readU32(outA, windows), hashB: arena.readU32(outB, windows) };
    });
  }

  seenBlocks(windows: Fingerprints, size: number, seen: SeenWindows): BlockSpans {
    checkWindows(windows, size, seen);
    return this.scoped((arena) => {
      const winCount = windows.hashA.length;
      const seenCount = seen.hashA.length;
      const winA = arena.writeArray(windows.hashA);
      const winB = arena.writeArray(windows.hashB);
      const seenA = arena.writeArray(seen.hashA);
      const seenB = arena.writeArray(seen.hashB);
      const owner = arena.writeArray(seen.owner);
      const bound = maxBlocks(winCount > 0 ? winCount + size - 1 : 0, size);
      const start = arena.alloc(bound * 4);
      const lines = arena.alloc(bound * 4);
      const source = arena.alloc(bound * 4);
      const tableSize = repeatsTableSize(seenCount);
      const table = arena.alloc(tableSize * 8);
      const blocks = this.exports.seen_blocks(
        winCount,
        winA,
        winB,
        size,
        seenCount,
        seenA,
        seenB,
        owner,
        start,
        lines,
        source,
        table,
        tableSize,
      );
      return this.spans(arena, blocks, start, lines, source);
    });
  }

  private spans(arena: Arena, count: number, start: number, lines: number, source: number): BlockSpans {
    return {
      count,
      start: arena.readI32(start, count),
      lines: arena.readI32(lines, count),
      source: arena.readI32(source, count),
    };
  }

  estimateTokens(costs: Int32Array): number {
    return this.scoped((arena) => this.exports.estimate_tokens(this.textPtr, this.textLen, arena.writeArray(costs)));
  }

  lineTokens(count: number, start: Int32Array, end: Int32Array, costs: Int32Array): LineTokens {
    return this.scoped((arena) => {
      const starts = arena.writeArray(start);
      const ends = arena.writeArray(end);
      const milli = arena.alloc(count * 8);
      const tokens = this.exports.line_tokens(
        this.textPtr,
        this.textLen,
        starts,
        ends,
        count,
        milli,
        arena.writeArray(costs),
      );
      return { milli: arena.readF64(milli, count), tokens };
    });
  }

  classifyLines(lines: LineSpans): LineClasses {
    checkLineBounds(lines.count, lines.start, lines.end);
    return this.scoped((arena) => {
      const { count } = lines;
      const starts = arena.writeArray(lines.start);
      const ends = arena.writeArray(lines.end);
      const flags = arena.alloc(count * 4);
      const summary = this.exports.classify_lines(this.textPtr, this.textLen, count, starts, ends, flags);
      return { flags: arena.readI32(flags, count), summary };
    });
  }

  textFeatures(lines: LineTable, count: number, sample: number): TextFeatures {
    checkLineBounds(count, lines.start, lines.end);
    return this.scoped((arena) => {
      const starts = arena.writeArray(lines.start.subarray(0, count));
      const ends = arena.writeArray(lines.end.subarray(0, count));
      const shape = arena.alloc(count * 4);
      const fields = arena.alloc(count * DELIMITERS.length * 4);
      const totals = arena.alloc(8);
      this.exports.text_features(this.textPtr, this.textLen, starts, ends, count, shape, fields, totals, sample);
      const [tagOpenings, sampleFeeds] = arena.readI32(totals, 2);
      return {
        lines: count,
        shape: arena.readU32(shape, count),
        fields: arena.readI32(fields, count * DELIMITERS.length),
        tagOpenings: tagOpenings!,
        sampleFeeds: sampleFeeds!,
      };
    });
  }

  planWindows(request: WindowRequest): WindowPlan {
    checkWindowRequest(request);
    return this.scoped((arena) => {
      const { count } = request;
      const input = (values: Int32Array): number => arena.writeArray(values.subarray(0, count));
      const priority = input(request.priority);
      const cost = input(request.cost);
      const levels = input(request.levels);
      const spans = arena.alloc(count * 12);
      const omitted = arena.alloc(count * SEVERITY_COUNT * 4);
      const totals = arena.alloc(8);
      const keep = arena.alloc(count);
      const order = arena.alloc(count * 4);
      const n = this.exports.plan_windows(
        count,
        priority,
        cost,
        levels,
        spans,
        omitted,
        totals,
        keep,
        order,
        request.budget,
        request.head,
        request.tail,
        request.before,
        request.after,
      );
      const [keptTokens, keptLines] = arena.readI32(totals, 2);
      return {
        spans: arena.readI32(spans, n * 3),
        omittedBySeverity: arena.readI32(omitted, n * SEVERITY_COUNT),
        keptTokens: keptTokens!,
        keptLines: keptLines!,
      };
    });
  }

  fieldSpans(starts: Int32Array, ends: Int32Array, count: number, maxFields: number): FieldSpans {
    checkLineRanges(this.textLen, starts, ends, count);
    checkMaxFields(maxFields);
    return this.scoped((arena) => {
      const s = arena.writeArray(starts.subarray(0, count));
      const e = arena.writeArray(ends.subarray(0, count));
      const spans = arena.alloc(count * maxFields * 8);
      const first = arena.alloc((count + 1) * 4);
      const width = this.exports.field_spans(this.textPtr, s, e, count, maxFields, spans, first);
      const firsts = arena.readI32(first, count + 1);
      return { spans: arena.readI32(spans, 2 * firsts[count]!), first: firsts, width };
    });
  }

  idMaskedHashes(starts: Int32Array, ends: Int32Array, count: number): Fingerprints {
    return this.maskedHashes(this.exports.id_masked_hashes, starts, ends, count);
  }

  volatileFields(starts: Int32Array, ends: Int32Array, count: number, most: number): FieldSpans {
    const longest = checkLineRanges(this.textLen, starts, ends, count);
    checkFieldCount(most);
    return this.scoped((arena) => {
      const s = arena.writeArray(starts.subarray(0, count));
      const e = arena.writeArray(ends.subarray(0, count));
      const spans = arena.alloc(volatileFieldsBound(starts, ends, count, most) * 8);
      const first = arena.alloc((count + 1) * 4);
      const scratch = arena.alloc(longest * 2);
      this.exports.volatile_fields(this.textPtr, s, e, count, most, spans, first, scratch);
      const firsts = arena.readI32(first, count + 1);
      let width = 0;
      for (let i = 0; i < count; i++) width = Math.max(width, firsts[i + 1]! - firsts[i]!);
      return { spans: arena.readI32(spans, 2 * firsts[count]!), first: firsts, width };
    });
  }
}
