// The WebAssembly backend: every method copies its array inputs in, calls one
// kernel, and copies numbers and spans out. The text is copied in once by
// `begin` and stays below the arena mark until the next `begin`.
import type { Backend, LineGroups, LineTable, LineTokens } from '../types.js';
import { tableSizeFor } from '../twin/lines.js';
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

  estimateTokens(costs: Int32Array): number {
    return this.scoped((arena) => this.exports.estimate_tokens(this.textPtr, this.textLen, arena.writeArray(costs)));
  }

  lineTokens(count: number, start: Int32Array, end: Int32Array, costs: Int32Array): LineTokens {
    return this.scoped((arena) => {
      const starts = arena.writeArray(start);
      const ends = arena.writeArray(end);
      const milli = arena.alloc(count * 8);
      const tokens = this.exports.line_tokens(
        this.textPtr, this.textLen, starts, ends, count, milli, arena.writeArray(costs),
      );
      return { milli: arena.readF64(milli, count), tokens };
    });
  }
}
