// The grep processor: ripgrep / grep -n / grep -rn output (`path:line:match`,
// `path:match`, `path-line-context`, `--` separators) grouped by file in the
// order files came, every file kept with its exact match count, matches
// sampled per file at light/aggressive (first few, then an exact marker).
import type { Processor, ProcessorInput, ProcessorOutput } from '../types.js';
import { ProcessorError } from './errors.js';
import { omission, plural } from './markers.js';
import { keepPreserved } from './preserve.js';

// Paths hold no blanks (so timestamps like `16:13:38` in logs do not pass for
// hits); context lines also need a path-like part, or dates would (2005-06-03).
const MATCH = /^((?:[A-Za-z]:)?[^\s:]+):(\d+):(?:(\d+):)?(.*)$/;
const CONTEXT = /^((?:[A-Za-z]:)?[^\s:]*[/\\.][^\s:]*?)-(\d+)-(.*)$/;
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
  const render = (perFile: number): { text: string; omitted: number } => {
    const out: string[] = [];
    let omitted = 0;
    for (const f of files) {
      out.push(`${f.path} (${plural(f.matches, 'match', 'matches')})`);
      let shown = 0;
      let dropped = 0;
      for (const h of f.hits) {
        if (shown < perFile || isPreserved(h.line)) {
          out.push(`  ${h.line}`);
          if (h.match) shown++;
        } else if (h.match) dropped++;
      }
      if (dropped) out.push(`  ${omission(dropped, 'matching line')}`);
      omitted += dropped;
    }
    return { text: [...out, ...other].join('\n'), omitted };
  };
  let result = render(Infinity);
  if (input.level !== 'lossless') {
    const target = input.level === 'aggressive' ? Math.floor(input.budget / 2) : input.budget;
    for (let perFile = input.level === 'aggressive' ? 5 : 10; perFile >= 1; perFile = perFile > 3 ? perFile - 2 : perFile - 1) {
      result = render(perFile);
      if (estimate(result.text) <= target) break;
    }
  }
  const text = keepPreserved(result.text, input.text, input.preserve);
  if (estimate(text) >= estimate(input.text)) return { text: input.text, omitted: {} };
  return { text, omitted: result.omitted ? { 'matching lines': result.omitted } : {} };
}

/** Share of the first 200 non-empty lines shaped like grep output. */
function sniff(text: string): number {
  const lines = text.split(/\r?\n/, 400).filter((l) => l !== '' && l !== '--').slice(0, 200);
  if (lines.length === 0) return 0;
  const hits = lines.filter((l) => MATCH.test(l) || CONTEXT.test(l)).length;
  return hits / lines.length;
}

export const grepProcessor: Processor = { kind: 'grep', sniff, process };
