// The one place that instantiates WebAssembly. The host owns linear memory:
// an arena hands out 16-aligned regions above heap_base() and grows memory on
// demand; typed-array views are re-created whenever the buffer changes.
import { EngineError } from '../errors.js';
import { WASM_BASE64 } from './binary.js';

/** Raw exports of build/squeeze.wasm; see docs/ABI.md. */
export interface WasmExports {
  readonly memory: WebAssembly.Memory;
  heap_base(): number;
  count_lines(text: number, len: number): number;
  lines(text: number, len: number, outStart: number, outEnd: number, outHashA: number, outHashB: number): number;
  group_lines(
    count: number,
    hashA: number,
    hashB: number,
    outGroup: number,
    outSize: number,
    table: number,
    tableSize: number,
  ): number;
  template_hashes(
    text: number,
    starts: number,
    ends: number,
    count: number,
    outA: number,
    outB: number,
    scratch: number,
  ): number;
  window_hashes(count: number, hashA: number, hashB: number, size: number, outA: number, outB: number): number;
  repeated_blocks(
    count: number,
    hashA: number,
    hashB: number,
    minLines: number,
    outStart: number,
    outLines: number,
    outSource: number,
    table: number,
    tableSize: number,
  ): number;
  seen_blocks(
    winCount: number,
    winA: number,
    winB: number,
    size: number,
    seenCount: number,
    seenA: number,
    seenB: number,
    seenOwner: number,
    outStart: number,
    outLines: number,
    outSource: number,
    table: number,
    tableSize: number,
  ): number;
  estimate_tokens(text: number, len: number, costs: number): number;
  line_tokens(
    text: number,
    len: number,
    lineStart: number,
    lineEnd: number,
    count: number,
    outMilli: number,
    costs: number,
  ): number;
  classify_lines(text: number, len: number, count: number, starts: number, ends: number, outFlags: number): number;
  text_features(
    text: number,
    len: number,
    starts: number,
    ends: number,
    count: number,
    outShape: number,
    outFields: number,
    outTotals: number,
    sample: number,
  ): number;
  volatile_fields(
    text: number,
    starts: number,
    ends: number,
    count: number,
    most: number,
    outSpans: number,
    outFirst: number,
    scratch: number,
  ): number;
  id_masked_hashes(
    text: number,
    starts: number,
    ends: number,
    count: number,
    outA: number,
    outB: number,
    scratch: number,
  ): number;
  field_spans(
    text: number,
    starts: number,
    ends: number,
    count: number,
    maxFields: number,
    outSpans: number,
    outFirst: number,
  ): number;
  plan_windows(
    count: number,
    priority: number,
    cost: number,
    levels: number,
    outSpans: number,
    outOmitted: number,
    outTotals: number,
    keep: number,
    order: number,
    budget: number,
    head: number,
    tail: number,
    before: number,
    after: number,
  ): number;
}

const PAGE = 65536;

function decodeBase64(b64: string): Uint8Array<ArrayBuffer> {
  if (typeof Buffer !== 'undefined') return new Uint8Array(Buffer.from(b64, 'base64'));
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export function wasmBytes(): Uint8Array<ArrayBuffer> {
  return decodeBase64(WASM_BASE64);
}

let compiled: WebAssembly.Module | null = null;

/**
 * The embedded module, compiled once per thread, or the one a worker was
 * handed (a WebAssembly.Module crosses postMessage/workerData without being
 * compiled again).
 */
export function compiledModule(): WebAssembly.Module {
  if (compiled) return compiled;
  if (typeof WebAssembly !== 'object') throw new EngineError('WebAssembly is not available in this runtime');
  const bytes = wasmBytes();
  if (!WebAssembly.validate(bytes)) {
    throw new EngineError('this runtime cannot validate squeeze.wasm (WebAssembly SIMD is required)');
  }
  try {
    compiled = new WebAssembly.Module(bytes);
  } catch (cause) {
    throw new EngineError('compiling squeeze.wasm failed', { cause });
  }
  return compiled;
}

/** Uses a module compiled elsewhere (a worker thread gets the main thread's). */
export function adoptModule(module: WebAssembly.Module): void {
  compiled ??= module;
}

/** Instantiates the compiled module synchronously. */
export function instantiate(): WasmExports {
  const module = compiledModule();
  try {
    return new WebAssembly.Instance(module, {}).exports as unknown as WasmExports;
  } catch (cause) {
    throw new EngineError('instantiating squeeze.wasm failed', { cause });
  }
}

/** Bump allocator over the module's memory; `mark`/`release` scope scratch. */
export class Arena {
  private top: number;
  private readonly base: number;
  private buffer: ArrayBuffer | null = null;
  private u16view = new Uint16Array(0);
  private i32view = new Int32Array(0);
  private u32view = new Uint32Array(0);

  constructor(private readonly exports: WasmExports) {
    this.base = exports.heap_base();
    this.top = this.base;
  }

  reset(): void {
    this.top = this.base;
  }

  mark(): number {
    return this.top;
  }

  release(mark: number): void {
    this.top = mark;
  }

  /** Reserves `bytes` (16-aligned) and returns the pointer. */
  alloc(bytes: number): number {
    const ptr = this.top;
    const top = ptr + ((bytes + 15) & ~15);
    const memory = this.exports.memory;
    const have = memory.buffer.byteLength;
    if (top > have) {
      try {
        memory.grow(Math.ceil((top - have) / PAGE));
      } catch (cause) {
        throw new EngineError(`WebAssembly memory cannot grow to ${top} bytes`, { cause });
      }
    }
    this.top = top;
    return ptr;
  }

  private views(): void {
    const buffer = this.exports.memory.buffer;
    if (buffer === this.buffer) return;
    this.buffer = buffer as ArrayBuffer;
    this.u16view = new Uint16Array(buffer);
    this.i32view = new Int32Array(buffer);
    this.u32view = new Uint32Array(buffer);
  }

  get u16(): Uint16Array {
    this.views();
    return this.u16view;
  }

  get i32(): Int32Array {
    this.views();
    return this.i32view;
  }

  get u32(): Uint32Array {
    this.views();
    return this.u32view;
  }

  /** Copies a string in as UTF-16 code units; returns the pointer. */
  writeText(text: string): number {
    const ptr = this.alloc(text.length * 2);
    if (typeof Buffer !== 'undefined') {
      Buffer.from(this.exports.memory.buffer, ptr, text.length * 2).write(text, 'utf16le');
    } else {
      const view = this.u16;
      const at = ptr >>> 1;
      for (let i = 0; i < text.length; i++) view[at + i] = text.charCodeAt(i);
    }
    return ptr;
  }

  /** Copies a 32-bit typed array in; returns the pointer. */
  writeArray(values: Int32Array | Uint32Array): number {
    const ptr = this.alloc(values.byteLength);
    new Uint8Array(this.exports.memory.buffer, ptr, values.byteLength).set(
      new Uint8Array(values.buffer, values.byteOffset, values.byteLength),
    );
    return ptr;
  }

  /** Copies `count` i32 out of memory into a fresh array. */
  readI32(ptr: number, count: number): Int32Array {
    return this.i32.slice(ptr >>> 2, (ptr >>> 2) + count);
  }

  readU32(ptr: number, count: number): Uint32Array {
    return this.u32.slice(ptr >>> 2, (ptr >>> 2) + count);
  }

  /** Copies `count` f64 out of memory (8-aligned `ptr`, as `alloc` returns). */
  readF64(ptr: number, count: number): Float64Array {
    return new Float64Array(this.exports.memory.buffer.slice(ptr, ptr + count * 8));
  }
}
