// The JSON processor: a compact structural rendering that is never larger than
// minified JSON (quotes dropped where unambiguous, uniform record arrays as
// tables), fitted to the budget by sampling arrays and cutting long strings
// while records with errors, high severities, outliers and preserved strings
// stay whole. Invalid or too-deep JSON throws JsonInputError.
import { estimateFor } from '../costs.js';
import type { Processor, ProcessorInput, ProcessorOutput } from '../../types.js';
import type { TextAnalysis } from '../../engine/index.js';
import { firstNonBlank } from '../head.js';
import { Fitter, type FitOptions } from './fit.js';
import { countValues, MAX_JSON_VALUES, summariseHugeJson } from './huge.js';
import { Importance } from './importance.js';
import { Originals } from './originals.js';
import { type ParsedJson, parseJson } from './parse.js';
import { References, block, entriesOf, inline, renderKey, type JsonValue, type PrunedNode } from './render.js';
import { checkDeadline } from '../errors.js';
import { omission } from '../markers.js';
import { keepPreserved } from '../keep-preserved.js';

const LINE_WIDTH = 160;
const BLOCK_DEPTH = 4;

/** Samples per array and string cuts, by level (aggressive keeps fewer). */
const FIT: Record<'light' | 'aggressive', Omit<FitOptions, 'evidenceChars'>> = {
  light: { maxSamples: 12, maxImportant: 60, shortString: 160 },
  aggressive: { maxSamples: 5, maxImportant: 30, shortString: 100 },
};

/** Block rendering may cost this much more than one line: it is far easier to read. */
const BLOCK_ALLOWANCE = 1.1;

/**
 * Block or one-line form (repeated subtrees as references): the block form
 * unless it costs clearly more, and never more than `ceiling` (minified JSON).
 */
function render(
  node: PrunedNode,
  lines: boolean,
  estimate: (s: string) => number,
  ceiling: number,
  originalLines = false,
): string {
  const canonical = new WeakMap<object, string>();
  const flat = inline(node, new References(canonical));
  const structured = block(
    node,
    { lineWidth: LINE_WIDTH, maxDepth: BLOCK_DEPTH, bareLines: lines },
    new References(canonical),
  );
  // Original lines are only lines in the block form.
  if (originalLines) return structured;
  const cost = estimate(structured);
  return cost <= estimate(flat) * BLOCK_ALLOWANCE && cost <= ceiling ? structured : flat;
}

/** Keys and array lengths two levels deep, for the top of a cut rendering. */
export function overview(value: JsonValue, depth = 2): string {
  if (Array.isArray(value)) {
    const first = value.find((v) => typeof v === 'object' && v !== null);
    return `[${value.length}]${first !== undefined && depth > 1 ? overview(first, depth - 1) : ''}`;
  }
  if (typeof value !== 'object' || value === null) return '';
  const entries = entriesOf(value) as Array<[string, JsonValue]>;
  const shown = entries.slice(0, 24).map(([k, v]) => {
    if (depth <= 1 || typeof v !== 'object' || v === null) return renderKey(k);
    return `${renderKey(k)}${Array.isArray(v) ? `[${v.length}]` : overview(v, depth - 1)}`;
  });
  if (entries.length > shown.length) shown.push(omission(entries.length - shown.length, 'key'));
  return `{${shown.join(',')}}`;
}

/** Renderings shrink minified JSON by at most this much: above it, skip trying the whole. */
const BEST_LOSSLESS_RATIO = 0.4;

/** Never more than the input: a rendering that is not smaller gives the original back. */
function process(input: ProcessorInput): ProcessorOutput {
  const out = fitJson(input);
  const estimate = estimateFor(input);
  return estimate(out.text) < estimate(input.text) ? out : { text: input.text, omitted: {}, omissions: [] };
}

/**
 * What every level reads of the document, made once per analysed text (the
 * pipeline tries lossless, then light, and the ceiling may try aggressive):
 * how many values it holds (up to one past MAX_JSON_VALUES) and, under that,
 * its parse (or the error it throws). Nothing downstream changes the value.
 */
interface Document {
  readonly values: number;
  readonly parsed?: ParsedJson;
  /** What parsing threw (JsonInputError), thrown again at every level. */
  readonly failure?: unknown;
}
const documents = new WeakMap<TextAnalysis, Document>();

function documentOf(input: ProcessorInput): Document {
  const read = (text: string): Document => {
    const values = countValues(text, MAX_JSON_VALUES);
    if (values > MAX_JSON_VALUES) return { values };
    try {
      return { values, parsed: parseJson(text) };
    } catch (failure) {
      return { values, failure };
    }
  };
  if (input.analysis.text !== input.text) return read(input.text);
  let document = documents.get(input.analysis);
  if (!document) documents.set(input.analysis, (document = read(input.text)));
  return document;
}

function fitJson(input: ProcessorInput): ProcessorOutput {
  const document = documentOf(input);
  if (document.values > MAX_JSON_VALUES) {
    // About 3 characters a token in JSON: the summary aims at the level's target.
    const target = input.level === 'aggressive' ? Math.floor(input.budget / 2) : input.budget;
    return { ...summariseHugeJson(input.text, target * 3), omissions: [] };
  }
  if (!document.parsed) throw document.failure;
  const { value, lines } = document.parsed;
  const estimate = estimateFor(input);
  const minifiedText = lines ? (value as JsonValue[]).map((v) => JSON.stringify(v)).join('\n') : JSON.stringify(value);
  const minified = estimate(minifiedText);
  const whole = () => keepPreserved(render(value, lines, estimate, minified), input.text, input.preserve);
  const target = input.level === 'aggressive' ? Math.floor(input.budget / 2) : input.budget;
  if (input.level === 'lossless') return { text: whole(), omitted: {}, omissions: [] };
  if (minified * BEST_LOSSLESS_RATIO <= target) {
    const text = whole();
    if (estimate(text) <= target) return { text, omitted: {}, omissions: [] };
  }

  const charsPerToken = minifiedText.length / Math.max(1, minified);
  const importance = new Importance(value, input.preserve);
  const evidenceTokens = input.level === 'light' ? input.maxTokens / 2 : target;
  // At light, records that stand out are shown as the tool printed them (one document with lines of its own).
  const originals = input.level === 'light' && !lines ? new Originals(input.text, value) : undefined;
  // They come on top of the target, up to 9/10 of maxTokens: every anomalous record inline while the output fits.
  const originalTokens = Math.max(0, Math.floor(input.maxTokens * 0.9) - target);
  const options = {
    ...FIT[input.level],
    evidenceChars: evidenceTokens * charsPerToken,
    originals,
    originalChars: originalTokens * charsPerToken,
  };
  const header = `[json${lines ? ' lines' : ''} ${overview(value)}]`;
  let chars = (target - estimate(header)) * charsPerToken;
  let best: { text: string; tokens: number; fitter: Fitter } | null = null;
  for (let attempt = 0; attempt < 6; attempt++) {
    checkDeadline('json', input.expired);
    const fitter = new Fitter(importance, options);
    const fitted = fitter.fit(value, Math.max(chars, 64));
    const text = `${header}\n${render(fitted, lines, estimate, minified, fitter.originalsShown > 0)}`;
    const tokens = estimate(text);
    if (!best || tokens < best.tokens) best = { text, tokens, fitter };
    // Original lines come first: the rest of the document gets what the target leaves (at least a quarter).
    const allowed = Math.max(target, Math.ceil(fitter.originalChars / charsPerToken) + Math.floor(target / 4));
    if (tokens <= allowed) break;
    chars *= Math.max(0.3, (allowed / tokens) * 0.92);
  }
  const text = keepPreserved(best!.text, input.text, input.preserve);
  if (estimate(text) >= Math.min(minified, estimate(input.text))) return { text: whole(), omitted: {}, omissions: [] };
  const counts = best!.fitter.counts;
  const omitted: Record<string, number> = {};
  if (counts.items) omitted['array items'] = counts.items;
  if (counts.keys) omitted['object keys'] = counts.keys;
  if (counts.characters) omitted['string characters'] = counts.characters;
  return { text, omitted, omissions: [] };
}

/** `{"key"` or `[{`/`[[`/`["`/`[` + newline open a document, read from the first non-blank character on. */
const OPENING = /\{\s*"|\[\s*[[{"]|\[\s*\n|\[\s*-?\d[\d.eE+-]*\s*,/y;

/** Confidence that a text is JSON: it parses, its first lines are JSON lines, or it opens like JSON. */
function sniff(analysis: TextAnalysis): number {
  const first = firstNonBlank(analysis);
  if (first === -1) return 0;
  const { text } = analysis;
  const line = analysis.line(first);
  const opening = analysis.lines.start[first]! + line.length - line.trimStart().length;
  if (text[opening] !== '{' && text[opening] !== '[') return 0;
  // A document's structure is no line feature: parsing it is the sure test, and only a text opening with { or [ gets here.
  if (text.length <= 2_000_000) {
    try {
      JSON.parse(text);
      return 1;
    } catch {
      // JSON lines, or a truncated document, still look like JSON
    }
  }
  // Five lines from the first, or all but the last when fewer follow (the last may be a cut line; a final
  // break ends it): judge those.
  const rest = analysis.lines.count - first + (/[\n\r]/.test(text.slice(-1)) ? 1 : 0);
  const firstLines: string[] = [];
  for (let i = first; i < first + Math.min(rest, 6) - 1; i++)
    if (analysis.line(i).trim() !== '') firstLines.push(analysis.line(i));
  const parses = (l: string) => {
    try {
      JSON.parse(l);
      return /^\s*[{[]/.test(l);
    } catch {
      return false;
    }
  };
  if (firstLines.length >= 2 && firstLines.every(parses)) return 0.9;
  // `{"key"` or `[{`/`[[`/`["`/`[` + newline open a document; `[INFO]` or `[    0.000]` do not.
  OPENING.lastIndex = opening;
  return OPENING.test(text) ? 0.6 : 0.1;
}

export const jsonProcessor: Processor = {
  kind: 'json',
  lineShaped: false,
  fallback: 'log',
  fileExtensions: ['json', 'jsonl', 'ndjson', 'geojson', 'har'],
  sniff,
  process,
};
