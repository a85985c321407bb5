// Loading build/squeeze.wasm with @assemblyscript/loader and splitting a text
// into lines with count_lines + lines. Run: node examples/assemblyscript-loader.mjs [file]
// (without a file it splits a built-in sample). Prints {"count": n, "lines": [...]} as JSON.
//
// Upstream has called the loader deprecated since AssemblyScript 0.20, and its
// string helpers (__newString, __getString) need runtime exports this module
// does not have, so the text goes in and the spans come out by hand, as in
// docs/ABI.md, which is the supported way to drive squeeze.wasm.
import loader from '@assemblyscript/loader';
import { readFileSync } from 'node:fs';

const bytes = readFileSync(new URL('../build/squeeze.wasm', import.meta.url));
const { exports } = loader.instantiateSync(bytes, {});
const { memory, heap_base, count_lines, lines } = exports;

const text = process.argv[2]
  ? readFileSync(process.argv[2], 'utf8')
  : 'build started\r\nerror: missing ;\r\n错误 😀\nlast line without newline';

/** Reserves `size` bytes at `ptr` (growing memory if needed); returns the next 16-aligned free byte. */
function reserve(ptr, size) {
  const next = (ptr + size + 15) & ~15;
  const missing = next - memory.buffer.byteLength;
  if (missing > 0) memory.grow(Math.ceil(missing / 65536));
  return next;
}

// The text, as UTF-16 code units, at heap_base().
const textPtr = heap_base();
let free = reserve(textPtr, text.length * 2);
const units = new Uint16Array(memory.buffer, textPtr, text.length);
for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);

// Four i32 outputs of count entries each: start, end and the two hash lanes.
const count = count_lines(textPtr, text.length);
const outputs = [];
for (let k = 0; k < 4; k++) {
  outputs.push(free);
  free = reserve(free, count * 4);
}
lines(textPtr, text.length, ...outputs);

const i32 = new Int32Array(memory.buffer); // after the grows: a fresh view
const [starts, ends] = outputs.map((ptr) => i32.subarray(ptr >> 2, (ptr >> 2) + count));
const result = { count, lines: Array.from(starts, (start, i) => text.slice(start, ends[i])) };
console.log(JSON.stringify(result));
