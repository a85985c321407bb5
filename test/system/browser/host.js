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

function tableSizeFor(entries, minimum) {
  let size = 16;
  while (size < minimum(entries)) size *= 2;
  return size;
}

function spans(blocks, start, lines, source) {
  return {
    count: blocks,
    start: read(Int32Array, start, blocks),
    lines: read(Int32Array, lines, blocks),
    source: read(Int32Array, source, blocks),
  };
}

const WINDOW_LINES = 4;
const BLOCK_LINES = 3;

/** Every kernel's output for a text given as UTF-16 code units, under a token cost table. */
function analyse(units, costTable) {
  top = k.heap_base();
  const len = units.length;
  const text = alloc(len * 2);
  new Uint16Array(k.memory.buffer, text, len).set(units);
  const costs = alloc(costTable.length * 4);
  new Int32Array(k.memory.buffer, costs, costTable.length).set(costTable);

  // Line table and exact groups.
  const count = k.count_lines(text, len);
  const start = alloc(count * 4);
  const end = alloc(count * 4);
  const hashA = alloc(count * 4);
  const hashB = alloc(count * 4);
  const written = k.lines(text, len, start, end, hashA, hashB);
  const groupSize = tableSizeFor(count, (n) => n * 2);
  const group = alloc(count * 4);
  const size = alloc(count * 4);
  const distinct = k.group_lines(count, hashA, hashB, group, size, alloc(groupSize * 4), groupSize);

  // Templates (scratch: the longest line) and their groups.
  const starts = read(Int32Array, start, count);
  const ends = read(Int32Array, end, count);
  const longest = starts.reduce((most, s, i) => Math.max(most, ends[i] - s), 0);
  const tplA = alloc(count * 4);
  const tplB = alloc(count * 4);
  k.template_hashes(text, start, end, count, tplA, tplB, alloc(longest * 2));
  const tplGroup = alloc(count * 4);
  const tplSize = alloc(count * 4);
  const tplDistinct = k.group_lines(count, tplA, tplB, tplGroup, tplSize, alloc(groupSize * 4), groupSize);

  // Repeated blocks within the text.
  const bound = Math.floor(count / BLOCK_LINES);
  const rStart = alloc(bound * 4);
  const rLines = alloc(bound * 4);
  const rSource = alloc(bound * 4);
  const rTable = tableSizeFor(count >= BLOCK_LINES ? count - BLOCK_LINES + 1 : 0, (n) => n * 2);
  const repeated = k.repeated_blocks(
    count,
    hashA,
    hashB,
    BLOCK_LINES,
    rStart,
    rLines,
    rSource,
    alloc(rTable * 8),
    rTable,
  );

  // Window hashes, and seen blocks against the text's own windows as one earlier result.
  const windows = count >= WINDOW_LINES ? count - WINDOW_LINES + 1 : 0;
  const winA = alloc(windows * 4);
  const winB = alloc(windows * 4);
  const windowCount = k.window_hashes(count, hashA, hashB, WINDOW_LINES, winA, winB);
  const owner = alloc(windows * 4);
  new Int32Array(k.memory.buffer, owner, windows).fill(0);
  const sBound = Math.floor((windows > 0 ? windows + WINDOW_LINES - 1 : 0) / WINDOW_LINES);
  const sStart = alloc(sBound * 4);
  const sLines = alloc(sBound * 4);
  const sSource = alloc(sBound * 4);
  const sTable = tableSizeFor(windows, (n) => n * 2);
  const seen = k.seen_blocks(
    windows,
    winA,
    winB,
    WINDOW_LINES,
    windows,
    winA,
    winB,
    owner,
    sStart,
    sLines,
    sSource,
    alloc(sTable * 8),
    sTable,
  );

  // Tokens: the whole text, and per line (f64 output).
  const tokens = k.estimate_tokens(text, len, costs);
  const milli = alloc(count * 8);
  const lineTokenTotal = k.line_tokens(text, len, start, end, count, milli, costs);

  // Line classes, then a log window plan built from them: evidence (flags bits 3-9,
  // or severity ERROR and above) first, costs from line tokens, a quarter of the tokens.
  const flags = alloc(count * 4);
  const summary = k.classify_lines(text, len, count, start, end, flags);
  const levels = read(Int32Array, flags, count);
  const cost = read(Float64Array, milli, count).map((m) => Math.ceil(m / 1000));
  const priority = levels.map((f) => ((f & 7) >= 5 ? 2 : f & 0x3f8 ? 1 : 0));
  const budget = Math.ceil(cost.reduce((sum, c) => sum + c, 0) / 4);
  const input = (values) => {
    const ptr = alloc(count * 4);
    new Int32Array(k.memory.buffer, ptr, count).set(values);
    return ptr;
  };
  const [pPriority, pCost] = [input(priority), input(cost)];
  const outSpans = alloc(count * 12);
  const outOmitted = alloc(count * 7 * 4);
  const outTotals = alloc(8);
  const spanCount = k.plan_windows(
    count,
    pPriority,
    pCost,
    flags,
    outSpans,
    outOmitted,
    outTotals,
    alloc(count),
    alloc(count * 4),
    budget,
    20,
    20,
    3,
    3,
  );
  const [keptTokens, keptLines] = read(Int32Array, outTotals, 2);

  return {
    count,
    written,
    start: starts,
    end: ends,
    hashA: read(Uint32Array, hashA, count),
    hashB: read(Uint32Array, hashB, count),
    group: read(Int32Array, group, count),
    size: read(Int32Array, size, count),
    distinct,
    templateA: read(Uint32Array, tplA, count),
    templateB: read(Uint32Array, tplB, count),
    templateGroup: read(Int32Array, tplGroup, count),
    templateSize: read(Int32Array, tplSize, count),
    templateDistinct: tplDistinct,
    repeated: spans(repeated, rStart, rLines, rSource),
    windowCount,
    windowA: read(Uint32Array, winA, windows),
    windowB: read(Uint32Array, winB, windows),
    seen: spans(seen, sStart, sLines, sSource),
    tokens,
    lineTokenTotal,
    milli: read(Float64Array, milli, count),
    flags: levels,
    summary,
    plan: {
      spans: read(Int32Array, outSpans, spanCount * 3),
      omitted: read(Int32Array, outOmitted, spanCount * 7),
      keptTokens,
      keptLines,
    },
  };
}

window.squeezeHost = {
  imports: WebAssembly.Module.imports(module).length,
  exports: WebAssembly.Module.exports(module)
    .map((e) => `${e.kind}:${e.name}`)
    .sort(),
  analyse,
  pages: () => k.memory.buffer.byteLength / 65536,
};
window.squeezeReady = true;
