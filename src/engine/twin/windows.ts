// TypeScript twin of assembly/windows.ts: the same plan (head and tail in
// turn, evidence windows by priority then position, a lone evidence line when
// its window does not fit), the same heapsort, bit-identical results.
import { checkWindowRequest } from '../contract.js';
import { SEVERITY_COUNT } from '../flags.js';
import type { WindowPlan, WindowRequest } from '../types.js';

function siftDown(order: Int32Array, priority: Int32Array, root: number, size: number): void {
  const before = (a: number, b: number): boolean =>
    priority[a]! > priority[b]! || (priority[a] === priority[b] && a < b);
  let parent = root;
  for (;;) {
    let child = 2 * parent + 1;
    if (child >= size) return;
    if (child + 1 < size && before(order[child]!, order[child + 1]!)) child++;
    const p = order[parent]!;
    const c = order[child]!;
    if (!before(p, c)) return;
    order[parent] = c;
    order[child] = p;
    parent = child;
  }
}

function sortEvidence(order: Int32Array, priority: Int32Array, n: number): void {
  for (let root = (n >> 1) - 1; root >= 0; root--) siftDown(order, priority, root, n);
  for (let last = n - 1; last > 0; last--) {
    const top = order[0]!;
    order[0] = order[last]!;
    order[last] = top;
    siftDown(order, priority, 0, last);
  }
}

export function planWindows(request: WindowRequest): WindowPlan {
  checkWindowRequest(request);
  const { count, priority, cost, levels } = request;
  if (count <= 0) {
    return { spans: new Int32Array(0), omittedBySeverity: new Int32Array(0), keptTokens: 0, keptLines: 0 };
  }
  const budget = Math.max(request.budget | 0, 0);
  const head = Math.max(request.head | 0, 0);
  const tail = Math.max(request.tail | 0, 0);
  const contextBefore = Math.max(request.before | 0, 0);
  const contextAfter = Math.max(request.after | 0, 0);
  const costAt = (i: number): number => Math.max(cost[i]!, 0);
  const keep = new Uint8Array(count);
  let tokens = 0;

  let h = 0;
  const headEnd = Math.min(head, count);
  let t = count - 1;
  const tailStop = tail >= count ? 0 : count - tail;
  let headOpen = true;
  let tailOpen = true;
  while (headOpen || tailOpen) {
    if (headOpen) {
      if (h >= headEnd) headOpen = false;
      else if (keep[h] !== 0) h++;
      else if (costAt(h) <= budget - tokens) {
        keep[h] = 1;
        tokens += costAt(h);
        h++;
      } else headOpen = false;
    }
    if (tailOpen) {
      if (t < tailStop) tailOpen = false;
      else if (keep[t] !== 0) t--;
      else if (costAt(t) <= budget - tokens) {
        keep[t] = 1;
        tokens += costAt(t);
        t--;
      } else tailOpen = false;
    }
  }

  const order = new Int32Array(count);
  let n = 0;
  for (let i = 0; i < count; i++) if (priority[i]! > 0) order[n++] = i;
  sortEvidence(order, priority, n);
  for (let k = 0; k < n; k++) {
    const line = order[k]!;
    const lo = contextBefore >= line ? 0 : line - contextBefore;
    const hi = contextAfter >= count - 1 - line ? count - 1 : line + contextAfter;
    const room = budget - tokens;
    let need = 0;
    let fits = true;
    for (let j = lo; j <= hi; j++) {
      if (keep[j] !== 0) continue;
      const c = costAt(j);
      if (c > room - need) {
        fits = false;
        break;
      }
      need += c;
    }
    if (fits) {
      keep.fill(1, lo, hi + 1);
      tokens += need;
    } else if (keep[line] === 0 && costAt(line) <= room) {
      keep[line] = 1;
      tokens += costAt(line);
    }
  }

  const spans: number[] = [];
  const omitted: number[] = [];
  let keptLines = 0;
  let i = 0;
  while (i < count) {
    const kept = keep[i]!;
    const start = i;
    const at = omitted.length;
    for (let s = 0; s < SEVERITY_COUNT; s++) omitted.push(0);
    while (i < count && keep[i] === kept) {
      if (kept === 0) omitted[at + Math.min(levels[i]! & 7, 6)]!++;
      i++;
    }
    spans.push(start, i, kept);
    if (kept !== 0) keptLines += i - start;
  }
  return { spans: Int32Array.from(spans), omittedBySeverity: Int32Array.from(omitted), keptTokens: tokens, keptLines };
}
