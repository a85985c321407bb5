// The large log of the full-output tests: a service's 2,000-line log (about
// 288 KB) whose 80 WARN lines all sit in its first half, so none of them is in
// the last 64,000 bytes a DSH shell result keeps. And a count of how many of
// those WARN lines a compressed result shows the model, inline or counted in
// omission markers.

export interface WarnLog {
  readonly text: string;
  readonly lines: readonly string[];
  /** 1-based numbers of the WARN lines. */
  readonly warnLines: readonly number[];
}

/** Deterministic: the same text on every run. */
export function warnLog(total = 2000, warnings = 80): WarnLog {
  const lines: string[] = [];
  const warnLines: number[] = [];
  const every = Math.floor(total / 2 / warnings);
  let x = 12345;
  const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 8; // high bits: the low ones of an LCG cycle
  for (let i = 0; i < total; i++) {
    const ts = new Date(Date.UTC(2026, 2, 14, 9, 0, 0) + i * 1375).toISOString();
    const worker = `ingest-worker-${next() % 8}`;
    if (i % every === 7 && warnLines.length < warnings) {
      warnLines.push(i + 1);
      lines.push(
        `${ts} WARN  [${worker}] slow downstream call to inventory-service: ${1000 + (next() % 4000)} ms (retry ${1 + (next() % 3)} of 3) order=${next() % 100000}`,
      );
    } else {
      lines.push(
        `${ts} INFO  [${worker}] processed batch ${i} of orders: ${next() % 900} records in ${next() % 300} ms (p95 ${next() % 40} ms), queue depth ${next() % 50}, heap ${200 + (next() % 300)} MB, gc ok`,
      );
    }
  }
  return { text: `${lines.join('\n')}\n`, lines, warnLines };
}

const num = (s: string) => Number(s.replaceAll(',', ''));

/** An omission marker: `[… 45 lines omitted: 42 INFO, 3 WARN …]`, or with the lines named, `[… lines 12–56 (45): … …]`. */
const OMITTED = /^\[… (?:lines ([\d,]+)[–-]([\d,]+) \([\d,]+\)|[\d,]+ lines omitted): (.*) …\]$/;

export interface WarnEvidence {
  /** WARN lines shown verbatim. */
  readonly inline: number;
  /** WARN lines counted in omission markers. */
  readonly counted: number;
  /** Markers that name their lines and count a number of WARN lines the log does not have there. */
  readonly wrongRanges: string[];
}

/** How many of the log's WARN lines `shown` carries, inline or counted. */
export function warnEvidence(shown: string, log: WarnLog): WarnEvidence {
  const warn = new Set(log.warnLines.map((n) => log.lines[n - 1]));
  let inline = 0;
  let counted = 0;
  const wrongRanges: string[] = [];
  const seen = new Set<string>();
  for (const line of shown.split('\n')) {
    if (warn.has(line) && !seen.has(line)) {
      seen.add(line);
      inline++;
      continue;
    }
    const marker = OMITTED.exec(line);
    if (marker === null) continue;
    const n = /([\d,]+) WARN\b/.exec(marker[3]!);
    const warns = n ? num(n[1]!) : 0;
    counted += warns;
    if (marker[1] !== undefined) {
      const from = num(marker[1]);
      const to = num(marker[2]!);
      const actual = log.warnLines.filter((w) => w >= from && w <= to).length;
      if (actual !== warns) wrongRanges.push(line);
    }
  }
  return { inline, counted, wrongRanges };
}
