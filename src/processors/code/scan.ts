// The outline scanner of the code processor: one pass over a source text that
// finds its blocks (brace/bracket pairs, Python and Ruby indentation, Markdown
// sections, YAML nesting) and its comment-only lines, with strings and
// comments skipped so a `{` inside "…" or /* … */ opens nothing.
//
// Why not tree-sitter: compress() is synchronous while web-tree-sitter needs an
// async init, it needs a grammar (a .wasm of hundreds of KB) per language, and
// reads are often partial files (offset/limit, byte caps) that a parser sees as
// broken. An outline needs only nesting, which a small scanner finds on any
// slice of any brace or indentation language.

/** How a language nests its blocks; 'none' for text without structure (logs, CSV, prose). */
export type Nesting = 'brace' | 'indent' | 'markdown' | 'yaml' | 'sections' | 'none';

export interface Lang {
  readonly name: string;
  readonly nesting: Nesting;
  readonly lineComments: readonly string[];
  readonly blockComment?: readonly [string, string];
  /** `"""`/`'''` strings span lines (Python, Kotlin, Swift, Scala, Java text blocks). */
  readonly tripleQuotes?: boolean;
  /** Backtick strings span lines (JS template literals, Go raw strings). */
  readonly backticks?: boolean;
  /** `/…/` regular expression literals (JS/TS). */
  readonly regexLiterals?: boolean;
  /** `'a` is a lifetime unless it closes as a char literal (Rust). */
  readonly lifetimes?: boolean;
  /** `#…` lines are preprocessor directives, `\`-continued (C family). */
  readonly preprocessor?: boolean;
  /** For indent nesting: headers of blocks whose body is folded / shown. */
  readonly bodyHeader?: RegExp;
  readonly containerHeader?: RegExp;
}

const C_COMMENTS = { lineComments: ['//'], blockComment: ['/*', '*/'] } as const;
const JS: Lang = { name: 'js', nesting: 'brace', ...C_COMMENTS, backticks: true, regexLiterals: true };
const C: Lang = { name: 'c', nesting: 'brace', ...C_COMMENTS, preprocessor: true };
const JVM: Lang = { name: 'jvm', nesting: 'brace', ...C_COMMENTS, tripleQuotes: true };
const PYTHON: Lang = {
  name: 'python',
  nesting: 'indent',
  lineComments: ['#'],
  tripleQuotes: true,
  bodyHeader: /^(?:async\s+)?def\b/,
  containerHeader: /^class\b/,
};
const RUBY: Lang = {
  name: 'ruby',
  nesting: 'indent',
  lineComments: ['#'],
  bodyHeader: /^def\b/,
  containerHeader: /^(?:class|module)\b/,
};

/** Languages by file extension: the code processor claims every one of these. */
export const LANGS: Readonly<Record<string, Lang>> = {
  ...Object.fromEntries(['ts', 'tsx', 'mts', 'cts', 'js', 'jsx', 'mjs', 'cjs'].map((e) => [e, JS])),
  ...Object.fromEntries(['c', 'h', 'cc', 'cpp', 'cxx', 'hpp', 'hh', 'm'].map((e) => [e, C])),
  ...Object.fromEntries(['java', 'kt', 'kts', 'scala', 'swift', 'groovy', 'gradle', 'dart'].map((e) => [e, JVM])),
  ...Object.fromEntries(
    ['cs', 'php', 'css', 'scss', 'less'].map((e) => [e, { ...C_COMMENTS, name: e, nesting: 'brace' } as Lang]),
  ),
  rs: { name: 'rust', nesting: 'brace', ...C_COMMENTS, lifetimes: true },
  go: { name: 'go', nesting: 'brace', ...C_COMMENTS, backticks: true },
  json: { name: 'json', nesting: 'brace', lineComments: [] },
  jsonc: { name: 'json', nesting: 'brace', ...C_COMMENTS },
  sh: { name: 'shell', nesting: 'brace', lineComments: ['#'] },
  bash: { name: 'shell', nesting: 'brace', lineComments: ['#'] },
  py: PYTHON,
  pyi: PYTHON,
  rb: RUBY,
  md: { name: 'markdown', nesting: 'markdown', lineComments: [] },
  markdown: { name: 'markdown', nesting: 'markdown', lineComments: [] },
  yaml: { name: 'yaml', nesting: 'yaml', lineComments: ['#'] },
  yml: { name: 'yaml', nesting: 'yaml', lineComments: ['#'] },
  toml: { name: 'toml', nesting: 'sections', lineComments: ['#'] },
  ini: { name: 'ini', nesting: 'sections', lineComments: ['#', ';'] },
  cfg: { name: 'ini', nesting: 'sections', lineComments: ['#', ';'] },
};

const PLAIN: Lang = { name: 'plain', nesting: 'none', lineComments: [] };

/** The language of a file path, or of unnamed text (`cat` output) by its look. */
export function langOf(path: string | undefined, lines: readonly string[]): Lang {
  const ext = path === undefined ? undefined : /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  const byExt = ext === undefined ? undefined : LANGS[ext];
  if (byExt) return byExt;
  const sample = lines.slice(0, 200).filter((l) => l.trim() !== '');
  const share = (re: RegExp) => sample.filter((l) => re.test(l)).length / Math.max(1, sample.length);
  const braces = share(/[{};]\s*$/);
  if (share(/^(?:(?:async\s+)?def|class|import|from)\s.*[:\w]\s*$/) > 0.03 && braces < 0.05) return PYTHON;
  if (share(/^#{1,6} \S/) > 0.02 && braces < 0.05) return LANGS.md!;
  // Brace scanning of a log or a table would fold lines after any stray bracket.
  return braces >= 0.2 ? JS : PLAIN;
}

/** Lines longer than this are opaque to the scanner and cut at light (minified code). */
export const LONG_LINE = 400;

export type BlockKind = 'body' | 'container' | 'transparent';

export interface Block {
  /** The line naming the block (its header); -1 when it opened before the text. */
  readonly header: number;
  /** Body lines, 0-based inclusive. */
  readonly from: number;
  readonly to: number;
  kind: BlockKind;
  /** Body lines kept at light (a docstring's first line, a section's first line). */
  readonly keep: readonly number[];
  /** Nesting rank for YAML (0 = a top-level key's body). */
  readonly rank: number;
}

export interface Scan {
  readonly blocks: Block[];
  /** Lines holding nothing but comment text. */
  readonly comment: Uint8Array;
  /** Blocks are document sections named by their heading (Markdown, TOML/INI). */
  readonly sections?: boolean;
}

/** Modifiers before a declaration's keyword, at the start of its line. */
const MODIFIERS =
  /^\s*(?:(?:export|default|declare|async|pub(?:\([^)]*\))?|public|private|protected|internal|abstract|final|sealed|data|case|static|typedef|partial|open|unsafe|template\s*<[^>]*>)\s+)*/;
/**
 * Headers of blocks whose members are the outline (classes, structs, impls…),
 * modifiers first; a C function returning a `struct x *` is no struct.
 */
const CONTAINER = new RegExp(
  MODIFIERS.source +
    String.raw`(?:(?:class|interface|trait|impl|namespace|module|mod|object|record)\b(?!\s*[=:(.,;)])|(?:struct|union|enum)\b[^(]*$|extern\s+"C"|type\s+[\w$]+[^=]*=\s*\{)`,
);

interface Open {
  readonly char: string;
  readonly line: number;
}

type Mode =
  | { kind: 'code' }
  | { kind: 'comment'; close: string }
  | { kind: 'string'; close: string; multiline: boolean };

const CLOSER: Record<string, string> = { '}': '{', ']': '[', ')': '(' };

/** Brace/bracket blocks and comment-only lines of a text in a brace (or indent) language. */
function scanBrackets(
  lines: readonly string[],
  lang: Lang,
): { blocks: Block[]; comment: Uint8Array; depth: Int32Array; inString: Uint8Array } {
  const blocks: Block[] = [];
  const comment = new Uint8Array(lines.length);
  const depth = new Int32Array(lines.length);
  const inString = new Uint8Array(lines.length);
  const stack: Open[] = [];
  let mode: Mode = { kind: 'code' };
  let continued = false;
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i]!;
    depth[i] = stack.length;
    inString[i] = mode.kind === 'string' ? 1 : 0;
    if (t.length > LONG_LINE) continue;
    if (lang.preprocessor && mode.kind === 'code' && (continued || /^\s*#/.test(t))) {
      continued = t.trimEnd().endsWith('\\');
      continue;
    }
    let code = false;
    let commented = mode.kind === 'comment';
    let previous = '';
    for (let j = 0; j < t.length; ) {
      if (mode.kind === 'comment') {
        const end = t.indexOf(mode.close, j);
        if (end === -1) break;
        j = end + mode.close.length;
        mode = { kind: 'code' };
        continue;
      }
      if (mode.kind === 'string') {
        code = true;
        const end = closingQuote(t, j, mode.close);
        if (end === -1) {
          if (!mode.multiline) mode = { kind: 'code' };
          break;
        }
        j = end + mode.close.length;
        mode = { kind: 'code' };
        previous = '"';
        continue;
      }
      const c = t[j]!;
      if (c === ' ' || c === '\t' || c === '\r') {
        j++;
        continue;
      }
      if (lang.lineComments.some((p) => t.startsWith(p, j))) {
        commented = true;
        break;
      }
      if (lang.blockComment && t.startsWith(lang.blockComment[0], j)) {
        commented = true;
        mode = { kind: 'comment', close: lang.blockComment[1] };
        j += lang.blockComment[0].length;
        continue;
      }
      code = true;
      if (lang.tripleQuotes && (t.startsWith('"""', j) || t.startsWith("'''", j))) {
        mode = { kind: 'string', close: t.slice(j, j + 3), multiline: true };
        j += 3;
        continue;
      }
      if (c === '"' || (c === "'" && !(lang.lifetimes && isLifetime(t, j))) || (c === '`' && lang.backticks)) {
        mode = { kind: 'string', close: c, multiline: c === '`' };
        j++;
        continue;
      }
      if (c === '/' && lang.regexLiterals && /^$|[(,=:[!&|?{};]$/.test(previous)) {
        const end = regexEnd(t, j);
        if (end !== -1) {
          j = end + 1;
          previous = '/';
          continue;
        }
      }
      if (c === '{' || c === '[' || c === '(') stack.push({ char: c, line: i });
      else if (c in CLOSER) {
        const open = stack.pop();
        const from = open === undefined ? 0 : open.line + 1;
        if (i - 1 >= from) {
          blocks.push({
            header: open?.line ?? -1,
            from,
            to: i - 1,
            kind: open?.char === '(' ? 'transparent' : 'body',
            keep: [],
            rank: 0,
          });
        }
      }
      previous = c;
      j++;
    }
    if (commented && !code) comment[i] = 1;
  }
  // Blocks still open at the end of a partial read run to its last line.
  for (const open of stack) {
    if (open.line + 1 <= lines.length - 1) {
      blocks.push({
        header: open.line,
        from: open.line + 1,
        to: lines.length - 1,
        kind: open.char === '(' ? 'transparent' : 'body',
        keep: [],
        rank: 0,
      });
    }
  }
  return { blocks, comment, depth, inString };
}

/** Index of the unescaped `close` at or after `from`, or -1. */
function closingQuote(t: string, from: number, close: string): number {
  for (let j = from; j < t.length; j++) {
    if (t[j] === '\\') j++;
    else if (t.startsWith(close, j)) return j;
  }
  return -1;
}

/** A Rust lifetime (`'a`) rather than a char literal (`'a'`, `'\n'`, `'{'`). */
function isLifetime(t: string, j: number): boolean {
  return !/^'(?:\\.[^']*|[^\\'])'/.test(t.slice(j, j + 12));
}

/** End of a regex literal starting at `j` (its closing slash), or -1 when it is not one. */
function regexEnd(t: string, j: number): number {
  if (t[j + 1] === '/' || t[j + 1] === '*') return -1;
  let inClass = false;
  for (let k = j + 1; k < t.length; k++) {
    const c = t[k];
    if (c === '\\') k++;
    else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) return k;
  }
  return -1;
}

const indentOf = (line: string) => /^[ \t]*/.exec(line)![0].replace(/\t/g, '    ').length;
const blank = (line: string) => line.trim() === '';

/** Python/Ruby: brackets as in brace languages, plus def/class blocks by indentation. */
function scanIndented(lines: readonly string[], lang: Lang): Scan {
  const { blocks, comment, depth, inString } = scanBrackets(lines, lang);
  for (const b of blocks) if (b.kind === 'body' && !/[[{]\s*$/.test(lines[b.header] ?? '')) b.kind = 'transparent';
  const starts = (i: number) => depth[i] === 0 && !inString[i] && !blank(lines[i]!) && !comment[i];
  for (let h = 0; h < lines.length; h++) {
    const head = lines[h]!.trim();
    const isBody = lang.bodyHeader!.test(head);
    if (!starts(h) || !(isBody || lang.containerHeader!.test(head))) continue;
    let end = h;
    while (end + 1 < lines.length && (depth[end + 1]! > 0 || inString[end + 1])) end++;
    const indent = indentOf(lines[h]!);
    let last = end;
    for (let i = end + 1; i < lines.length; i++) {
      if (blank(lines[i]!) || comment[i] || !starts(i)) continue;
      if (indentOf(lines[i]!) <= indent) break;
      last = i;
    }
    // Continuation lines of the body's last statement belong to it.
    while (last + 1 < lines.length && !starts(last + 1) && !blank(lines[last + 1]!) && !comment[last + 1]) last++;
    if (last <= end) continue;
    const first = lines.findIndex((l, i) => i > end && !blank(l));
    const docstring = isBody && first !== -1 && /^\s*[rbuRBU]?("""|'''|"|')/.test(lines[first]!) ? [first] : [];
    blocks.push({ header: h, from: end + 1, to: last, kind: isBody ? 'body' : 'container', keep: docstring, rank: 0 });
  }
  return { blocks, comment };
}

function scanMarkdown(lines: readonly string[], sections: boolean): Scan {
  const heading = sections ? /^\s*\[[^\]]+\]\s*$/ : /^#{1,6}\s/;
  const headings: number[] = [];
  let fence = false;
  lines.forEach((line, i) => {
    if (!sections && /^\s*(?:```|~~~)/.test(line)) fence = !fence;
    else if (!fence && heading.test(line)) headings.push(i);
  });
  const blocks: Block[] = [];
  headings.forEach((h, k) => {
    const to = (headings[k + 1] ?? lines.length) - 1;
    const first = lines.findIndex((l, i) => i > h && i <= to && !blank(l));
    if (to > h)
      blocks.push({ header: h, from: h + 1, to, kind: 'body', keep: first === -1 || sections ? [] : [first], rank: 0 });
  });
  return { blocks, comment: new Uint8Array(lines.length), sections: true };
}

/** YAML: every key whose next lines are indented deeper heads a block of them. */
function scanYaml(lines: readonly string[]): Scan {
  const blocks: Block[] = [];
  const comment = new Uint8Array(lines.length);
  lines.forEach((l, i) => {
    if (/^\s*#/.test(l)) comment[i] = 1;
  });
  const open: { header: number; indent: number; rank: number }[] = [];
  const close = (i: number, indent: number) => {
    while (open.length > 0 && open.at(-1)!.indent >= indent) {
      const o = open.pop()!;
      let to = i - 1;
      while (to > o.header && (blank(lines[to]!) || comment[to])) to--;
      if (to > o.header)
        blocks.push({ header: o.header, from: o.header + 1, to, kind: 'body', keep: [], rank: o.rank });
    }
  };
  for (let i = 0; i < lines.length; i++) {
    if (blank(lines[i]!) || comment[i]) continue;
    const indent = indentOf(lines[i]!);
    close(i, indent);
    open.push({ header: i, indent, rank: open.length });
  }
  close(lines.length, -1);
  return { blocks, comment };
}

export function scan(lines: readonly string[], lang: Lang): Scan {
  switch (lang.nesting) {
    case 'indent':
      return scanIndented(lines, lang);
    case 'markdown':
      return scanMarkdown(lines, false);
    case 'sections':
      return scanMarkdown(lines, true);
    case 'yaml':
      return scanYaml(lines);
    case 'none':
      return { blocks: [], comment: new Uint8Array(lines.length) };
    default: {
      const { blocks, comment } = scanBrackets(lines, lang);
      for (const b of blocks) {
        if (b.kind !== 'body') continue;
        const header = headerText(lines, b.header);
        if (IMPORT_LIST.test(header)) b.kind = 'transparent';
        else if (CONTAINER.test(header)) b.kind = 'container';
      }
      return { blocks, comment };
    }
  }
}

/** The text that names a block: its header line, or the line before when that is just `{` (Allman style). */
export function headerText(lines: readonly string[], header: number): string {
  if (header < 0) return '';
  const own = lines[header]!;
  if (/^[\s{([]*$/.test(own) && header > 0) return `${lines[header - 1]!} ${own}`;
  if (/^\s*\)/.test(own)) return `${signatureStart(lines, header)} ${own}`;
  return own;
}

/** The line opening the parameter list that a `): T {` line closes. */
function signatureStart(lines: readonly string[], header: number): string {
  let depth = 0;
  for (let k = header; k >= Math.max(0, header - 30); k--) {
    const line = lines[k]!;
    for (let j = line.length - 1; j >= 0; j--) {
      if (line[j] === ')') depth++;
      else if (line[j] === '(' && --depth === 0) return line;
    }
  }
  return '';
}

const DECLARED = String.raw`(class|interface|enum|struct|trait|impl|namespace|module|mod|object|union|record|type|fn|func|function\*?|def|macro_rules!)\s+(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)`;
/** Multi-line import and export lists (`import {`, `export {`, Rust `use a::{`): every line of them stays. */
const IMPORT_LIST = /^\s*(?:import\b|export\s+(?:type\s+)?\{|(?:pub(?:\([^)]*\))?\s+)?use\b)/;

/** `const x = …`, `self.x: T = …`, `static readonly X = …`: the assigned name. */
const ASSIGNED =
  /^\s*(?:(?:export|const|let|var|readonly|private|public|protected|static|pub|mut|final|val)\s+)*()([\w$@.]+)\s*(?::[^=()]*)?=(?![=>])/;
const NOT_NAMES = new Set([
  'if',
  'for',
  'while',
  'switch',
  'catch',
  'return',
  'function',
  'with',
  'elif',
  'sizeof',
  'typeof',
  'await',
  'new',
  'else',
  'do',
  'try',
]);

/** A short name for a block's header: the declared name, the called function or the assigned key. */
export function nameOf(header: string): string {
  const declared = new RegExp(MODIFIERS.source + DECLARED).exec(header) ?? new RegExp(`\\b${DECLARED}`).exec(header);
  if (declared && !(/^(?:struct|union|enum)$/.test(declared[1]!) && header.includes('('))) return declared[2]!;
  const assigned = ASSIGNED.exec(header) ?? /^\s*(["']?)([\w$@.-]+)\1\s*:\s*[[{(]/.exec(header);
  if (assigned) return assigned[2]!;
  for (const m of header.matchAll(/([A-Za-z_$][\w$]*)\s*(?:<[^<>()]*>)?\s*\(/g))
    if (!NOT_NAMES.has(m[1]!)) return m[1]!;
  const key = /(["']?)([\w$@./-]+)\1\s*[:=]/.exec(header.trim());
  if (key) return key[2]!;
  const word = /[A-Za-z_$][\w$]*/.exec(header);
  return word ? word[0] : 'block';
}
