// A hand-written browser host for build/squeeze.wasm, following docs/ABI.md
// only (no code from src/engine): a bump arena above heap_base(), the text
// copied in as UTF-16 code units, kernels called through the raw exports.
const response = await fetch('/squeeze.wasm');
const { module, instance } = await WebAssembly.instantiateStreaming(response, {});
const k = instance.exports;

let top = 0;
function alloc(bytes) {
  const ptr = top;
  top = (ptr + bytes + 15) & ~15;
  const missing = top - k.memory.buffer.byteLength;
  if (missing > 0) k.memory.grow(Math.ceil(missing / 65536));
  return ptr;
}

function read(Type, ptr, count) {
  // A fresh view every time: memory.grow detaches the old buffer.
  return Array.from(new Type(k.memory.buffer, ptr, count));
}

/** Every kernel's output for a text given as UTF-16 code units. */
function analyse(units) {
  top = k.heap_base();
  const text = alloc(units.length * 2);
  new Uint16Array(k.memory.buffer, text, units.length).set(units);
  const count = k.count_lines(text, units.length);
  const start = alloc(count * 4);
  const end = alloc(count * 4);
  const hashA = alloc(count * 4);
  const hashB = alloc(count * 4);
  const written = k.lines(text, units.length, start, end, hashA, hashB);
  let tableSize = 16;
  while (tableSize < count * 2) tableSize *= 2;
  const group = alloc(count * 4);
  const size = alloc(count * 4);
  const table = alloc(tableSize * 4);
  const distinct = k.group_lines(count, hashA, hashB, group, size, table, tableSize);
  return {
    count, written,
    start: read(Int32Array, start, count), end: read(Int32Array, end, count),
    hashA: read(Uint32Array, hashA, count), hashB: read(Uint32Array, hashB, count),
    group: read(Int32Array, group, count), size: read(Int32Array, size, count), distinct,
  };
}

window.squeezeHost = {
  imports: WebAssembly.Module.imports(module).length,
  exports: WebAssembly.Module.exports(module).map((e) => `${e.kind}:${e.name}`).sort(),
  analyse,
  pages: () => k.memory.buffer.byteLength / 65536,
};
window.squeezeReady = true;
