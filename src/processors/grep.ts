// The grep processor: ripgrep / grep -n / grep -rn output (`path:line:match`,
// `path:match`, `path-line-context`, `--` separators) grouped by file in the
// order files came, every file kept with its exact match count, matches
// sampled per file at light/aggressive (first few, then an exact marker).
import type { Processor, ProcessorInput, ProcessorOutput } from '../types.js';
import { ProcessorError } from './errors.js';
import { omission, plural } from './markers.js';
import { keepPreserved } from './preserve.js';

// A path has no spaces and looks like one (a slash or a file extension).
const PATH = String.raw`(?=[^\s:]*(?:/|\\|\.\w{1,10}(?=[:-]\d)))[^\s:]+?`;
const MATCH = new RegExp(String.raw`^(${PATH}):(\d+):(?:(\d+):)?(.*)$`);
const CONTEXT = new RegExp(String.raw`^(${PATH})-(\d+)-(.*)$`);
const PATH_ONLY = /^((?:\.{0,2}\/)?[\w.@+-]+(?:\/[\w.@+ -]+)*\.\w+):(.*)$/;

interface Hit {
  line: string;
  match: boolean;
}

interface FileHits {
  path: string;
  hits: Hit[];
  matches: number;
}

function parse(text: string): { files: FileHits[]; other: string[] } {
  const files = new Map<string, FileHits>();
  const other: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    if (raw === '' || raw === '--') continue;
    const m = MATCH.exec(raw);
    const c = m ? null : CONTEXT.exec(raw);
    const p = m || c ? null : PATH_ONLY.exec(raw);
    const path = m?.[1] ?? c?.[1] ?? p?.[1];
    if (path === undefined) {
      other.push(raw);
      continue;
    }
    let file = files.get(path);
    if (!file) files.set(path, (file = { path, hits: [], matches: 0 }));
    if (m) file.hits.push({ line: `${m[2]}:${m[3] ? `${m[3]}:` : ''}${m[4]}`, match: true });
    else if (c) file.hits.push({ line: `${c[2]}-${c[3]}`, match: false });
    else file.hits.push({ line: p![2]!, match: true });
    if (m || p) file.matches++;
  }
  return { files: [...files.values()], other };
}

function process(input: ProcessorInput): ProcessorOutput {
  const { files, other } = parse(input.text);
  if (files.length === 0) throw new ProcessorError('grep', 'no path:line:match lines');
  const estimate = (s: string) => input.estimator.estimate(s);
  const isPreserved = (s: string) => input.preserve.some((p) => p !== '' && s.includes(p));
  // Lines past `perFile` matches are counted per file (matching and context);
  // perFile = 0 lists files with their counts only, and one marker covers all.
  const render = (perFile: number): { text: string; matches: number; context: number } => {
    const out: string[] = [];
    let matches = 0;
    let context = 0;
    for (const f of files) {
      out.push(`${f.path} (${plural(f.matches, 'match', 'matches')})`);
      let shown = 0;
      const dropped = { matching: 0, context: 0 };
      for (const h of f.hits) {
        if (shown < perFile || isPreserved(h.line)) {
          out.push(`  ${h.line}`);
          if (h.match) shown++;
        } else if (h.match) dropped.matching++;
        else dropped.context++;
      }
      const lines = dropped.matching + dropped.context;
      if (lines && perFile > 0) out.push(`  ${omission(lines, 'line', dropped)}`);
      matches += dropped.matching;
      context += dropped.context;
    }
    if (perFile === 0 && matches + context) out.push(omission(matches + context, 'line', { matching: matches, context }));
    return { text: [...out, ...other].join('\n'), matches, context };
  };
  let result = render(Infinity);
  if (input.level !== 'lossless') {
    const target = input.level === 'aggressive' ? Math.floor(input.budget / 2) : input.budget;
    for (const perFile of input.level === 'aggressive' ? [5, 3, 2, 1, 0] : [10, 8, 6, 4, 3, 2, 1, 0]) {
      if (estimate(result.text) <= target) break;
      result = render(perFile);
    }
  }
  const text = keepPreserved(result.text, input.text, input.preserve);
  if (estimate(text) >= estimate(input.text)) return { text: input.text, omitted: {} };
  const omitted: Record<string, number> = {};
  if (result.matches) omitted['matching lines'] = result.matches;
  if (result.context) omitted['context lines'] = result.context;
  return { text, omitted };
}

/**
 * Share of the first 200 non-empty lines shaped like grep output, scaled by how
 * many distinct path:line pairs they have: grep hits differ in line number,
 * while log lines whose timestamp reads as `name:13:53:08` repeat one pair.
 */
function sniff(text: string): number {
  const lines = text.split(/\r?\n/, 400).filter((l) => l !== '' && l !== '--').slice(0, 200);
  if (lines.length === 0) return 0;
  const pairs = new Set<string>();
  let hits = 0;
  for (const l of lines) {
    const m = MATCH.exec(l) ?? CONTEXT.exec(l);
    if (!m) continue;
    hits++;
    pairs.add(`${m[1]}\u0000${m[2]}`);
  }
  if (hits === 0) return 0;
  return (hits / lines.length) * Math.min(1, (2 * pairs.size) / hits);
}

export const grepProcessor: Processor = { kind: 'grep', lineShaped: true, tools: ['grep', 'search'], sniff, process };
