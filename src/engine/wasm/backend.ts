// The WebAssembly backend: every method copies its array inputs in, calls one
// kernel, and copies numbers and spans out. The text is copied in once by
// `begin` and stays below the arena mark until the next `begin`.
import { SEVERITY_COUNT } from '../flags.js';
import type { Backend, LineClasses, LineGroups, LineTable, WindowPlan, WindowRequest } from '../types.js';
import { tableSizeFor } from '../twin/lines.js';
import { checkWindowRequest } from '../twin/windows.js';
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
    this.arena.reset();
    this.text = text;
    this.textLen = text.length;
    this.textPtr = this.arena.writeText(text);
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

  classifyLines(lines: LineTable): LineClasses {
    return this.scoped((arena) => {
      const { count } = lines;
      const starts = arena.writeArray(lines.start);
      const ends = arena.writeArray(lines.end);
      const flags = arena.alloc(count * 4);
      const summary = this.exports.classify_lines(this.textPtr, this.textLen, count, starts, ends, flags);
      return { flags: arena.readI32(flags, count), summary };
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
        count, priority, cost, levels, request.budget, request.head, request.tail, request.before, request.after,
        spans, omitted, totals, keep, order,
      );
      const [keptTokens, keptLines] = arena.readI32(totals, 2);
      return {
        spans: arena.readI32(spans, n * 3),
        omittedBySeverity: arena.readI32(omitted, n * SEVERITY_COUNT),
        keptTokens: keptTokens!, keptLines: keptLines!,
      };
    });
  }
}
