// Log window selection: which lines of a log to keep under a token budget.
// Head and tail first (alternately, each side stopping at its first line that
// does not fit), then a window of context around each evidence line in
// priority order (higher first, then earlier first); an evidence line whose
// window does not fit is kept alone if it fits. Kept lines form spans; the
// lines between them are omitted spans with exact per-severity counts.
// O(n log n + E * (before + after + 1)) for E evidence lines.

// @ts-ignore: decorator
@inline function i32At(ptr: usize, i: i32): i32 {
  return load<i32>(ptr + (<usize>i << 2));
}

/** Cost of line i, negative costs counting as 0. */
// @ts-ignore: decorator
@inline function costAt(cost: usize, i: i32): i32 {
  return max(i32At(cost, i), 0);
}

/** Evidence line a goes before b: higher priority, then earlier line. */
// @ts-ignore: decorator
@inline function before(priority: usize, a: i32, b: i32): bool {
  const pa = i32At(priority, a);
  const pb = i32At(priority, b);
  return pa > pb || (pa == pb && a < b);
}

function siftDown(order: usize, priority: usize, root: i32, size: i32): void {
  let parent = root;
  while (true) {
    let child = 2 * parent + 1;
    if (child >= size) return;
    if (child + 1 < size && before(priority, i32At(order, child), i32At(order, child + 1))) child++;
    const p = i32At(order, parent);
    const c = i32At(order, child);
    if (!before(priority, p, c)) return;
    store<i32>(order + (<usize>parent << 2), c);
    store<i32>(order + (<usize>child << 2), p);
    parent = child;
  }
}

/** Heapsort of order[0, n) so that order[0] is the line that goes first. */
function sortEvidence(order: usize, priority: usize, n: i32): void {
  for (let root = (n >> 1) - 1; root >= 0; root--) siftDown(order, priority, root, n);
  for (let last = n - 1; last > 0; last--) {
    const top = i32At(order, 0);
    store<i32>(order, i32At(order, last));
    store<i32>(order + (<usize>last << 2), top);
    siftDown(order, priority, 0, last);
  }
}

/**
 * Plans which of `count` lines to keep. Inputs per line (i32): `priority`
 * (0 = plain, higher = more important evidence), `cost` (tokens), `levels`
 * (severity in bits 0-2, 7 counting as 6: classify_lines' flags fit as is).
 * Writes spans as (startLine, endLine exclusive, kept 0/1) triples to
 * `outSpans` (at most `count` spans), 7 per-severity counts per span to
 * `outOmitted` (zero for kept spans), and [keptTokens, keptLines] to
 * `outTotals`. `keep` is scratch of `count` bytes, `order` of `count` i32.
 * Returns the number of spans.
 */
export function plan_windows(
  count: i32, priority: usize, cost: usize, levels: usize,
  outSpans: usize, outOmitted: usize, outTotals: usize, keep: usize, order: usize,
  budget: i32, head: i32, tail: i32, contextBefore: i32, contextAfter: i32,
): i32 {
  if (count <= 0) {
    store<i32>(outTotals, 0);
    store<i32>(outTotals + 4, 0);
    return 0;
  }
  budget = max(budget, 0);
  head = max(head, 0);
  tail = max(tail, 0);
  contextBefore = max(contextBefore, 0);
  contextAfter = max(contextAfter, 0);
  memory.fill(keep, 0, <usize>count);
  let tokens = 0;

  // Head and tail, one line from each side in turn.
  let h = 0;
  const headEnd = min(head, count);
  let t = count - 1;
  const tailStop = tail >= count ? 0 : count - tail;
  let headOpen = true;
  let tailOpen = true;
  while (headOpen || tailOpen) {
    if (headOpen) {
      if (h >= headEnd) headOpen = false;
      else if (load<u8>(keep + h) != 0) h++;
      else if (costAt(cost, h) <= budget - tokens) { store<u8>(keep + h, 1); tokens += costAt(cost, h); h++; }
      else headOpen = false;
    }
    if (tailOpen) {
      if (t < tailStop) tailOpen = false;
      else if (load<u8>(keep + t) != 0) t--;
      else if (costAt(cost, t) <= budget - tokens) { store<u8>(keep + t, 1); tokens += costAt(cost, t); t--; }
      else tailOpen = false;
    }
  }

  // Evidence windows, most important first.
  let n = 0;
  for (let i = 0; i < count; i++) {
    if (i32At(priority, i) > 0) { store<i32>(order + (<usize>n << 2), i); n++; }
  }
  sortEvidence(order, priority, n);
  for (let k = 0; k < n; k++) {
    const line = i32At(order, k);
    const lo = contextBefore >= line ? 0 : line - contextBefore;
    const hi = contextAfter >= count - 1 - line ? count - 1 : line + contextAfter;
    const room = budget - tokens;
    let need = 0;
    let fits = true;
    for (let j = lo; j <= hi; j++) {
      if (load<u8>(keep + j) != 0) continue;
      const c = costAt(cost, j);
      if (c > room - need) { fits = false; break; }
      need += c;
    }
    if (fits) {
      for (let j = lo; j <= hi; j++) store<u8>(keep + j, 1);
      tokens += need;
    } else if (load<u8>(keep + line) == 0 && costAt(cost, line) <= room) {
      store<u8>(keep + line, 1);
      tokens += costAt(cost, line);
    }
  }

  // Runs of kept and omitted lines, with per-severity counts of the omitted.
  let spans = 0;
  let keptLines = 0;
  let i = 0;
  while (i < count) {
    const kept = load<u8>(keep + i);
    const start = i;
    const counts = outOmitted + (<usize>spans * 28);
    memory.fill(counts, 0, 28);
    while (i < count && load<u8>(keep + i) == kept) {
      if (kept == 0) {
        const slot = counts + (<usize>min(i32At(levels, i) & 7, 6) << 2);
        store<i32>(slot, load<i32>(slot) + 1);
      }
      i++;
    }
    const span = outSpans + (<usize>spans * 12);
    store<i32>(span, start);
    store<i32>(span + 4, i);
    store<i32>(span + 8, kept);
    if (kept != 0) keptLines += i - start;
    spans++;
  }
  store<i32>(outTotals, tokens);
  store<i32>(outTotals + 4, keptLines);
  return spans;
}
