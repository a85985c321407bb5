// The written rules that pick each capture's needles: strings a faithful
// compression must keep verbatim. One rule per kind; every needle occurs in
// the text, has at least 4 characters and at most 240 (longer lines give a
// prefix, or a window around the match for minified lines).
export type Kind = 'code' | 'document' | 'grep' | 'listing' | 'diff' | 'gitlog' | 'git' | 'table' | 'build';

export interface NeedleContext {
  readonly kind: Kind;
  readonly tool: string;
  readonly command: string | null;
  /** For grep captures: what the pattern matches, as a JavaScript regex. */
  readonly match?: RegExp;
}

const MAX_NEEDLE = 240;

/** Up to `max` items, evenly spaced, first and last included. */
export function spaced<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  if (max <= 1) return items.slice(0, max);
  return Array.from({ length: max }, (_, i) => items[Math.round((i * (items.length - 1)) / (max - 1))]!);
}

function clip(s: string): string {
  // A coloured line gives its longest colour-free run.
  if (s.includes('\x1b'))
    s = s.split(/\x1b\[[0-9;]*m/).reduce((a, b) => (b.trim().length > a.trim().length ? b : a), '');
  const trimmed = s.replace(/\s+$/, '');
  return trimmed.length > MAX_NEEDLE ? trimmed.slice(0, MAX_NEEDLE).replace(/\s+$/, '') : trimmed;
}

/** A window of the line around the first match (for long, minified lines). */
function around(line: string, match: RegExp | undefined, width = 100): string {
  if (line.length <= MAX_NEEDLE) return line;
  const at = match ? line.search(new RegExp(match.source, match.flags.replace('g', ''))) : -1;
  const start = Math.max(0, Math.max(at, 0) - 30);
  return line.slice(start, start + width).trim();
}

const extension = (name: string) => (/\.([A-Za-z0-9]+)$/.exec(name)?.[1] ?? '').toLowerCase();

/** Names whose extension occurs once in the list. */
function rare(names: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const n of names) counts.set(extension(n), (counts.get(extension(n)) ?? 0) + 1);
  return names.filter((n) => extension(n) !== '' && counts.get(extension(n)) === 1);
}

// ------------------------------------------------------------------- reads

const DECLARATIONS: Record<string, RegExp[]> = {
  ts: [
    /^\s{0,4}(export\s+)?(default\s+)?(declare\s+)?(abstract\s+)?(async\s+)?(function\*?|class|interface|type|enum|namespace)\s+[\w$]/,
    /^(import|export)\b/,
    /^\s{0,4}(export\s+)?(const|let|var)\s+[\w$]+\s*=\s*(async\s*)?(\([^)]*\)|[\w$]+)\s*=>/,
    /^\s{2,4}(static\s+|private\s+|public\s+|protected\s+|readonly\s+|get\s+|set\s+|async\s+)*[\w$]+\s*(<[^>]*>)?\([^)]*\)\s*(:\s*[^{;]+)?\{\s*$/,
  ],
  py: [/^\s*(async\s+def|def|class)\s+\w/, /^(import|from)\s/],
  c: [
    /^#\s*(include|define)\s/,
    /^(typedef|struct|union|enum)\b/,
    /^(?!(if|for|while|switch|return|else|do)\b)(static\s+|inline\s+|extern\s+|const\s+|unsigned\s+|struct\s+|SQLITE_\w+\s+)*[A-Za-z_][\w\s*]*\b[A-Za-z_]\w*\s*\([^;]*$/,
  ],
  rs: [
    /^\s*(pub(\([^)]*\))?\s+)?(async\s+)?(unsafe\s+)?(fn|struct|enum|trait|impl|mod|use|const|static|type|macro_rules!)\b/,
  ],
  md: [/^#{1,6}\s/],
  json: [/^\s{0,4}"[^"]+":/],
  yaml: [/^(kind|apiVersion):\s/, /^ {2}name:\s/, /^---$/, /^[\w.-]+:\s*$/],
};
DECLARATIONS.js = DECLARATIONS.ts!;

function readNeedles(text: string, language: string): string[] {
  const body = /<content>\n([\s\S]*?)\n<\/content>/.exec(text)?.[1] ?? text;
  const numbered = body.split('\n').filter((l) => /^\d+: /.test(l));
  const rules = DECLARATIONS[language] ?? [];
  const isDeclaration = (l: string) => rules.some((re) => re.test(l.slice(l.indexOf(': ') + 2)));
  const declarations = numbered.filter(isDeclaration);
  const bodyLines = numbered.filter((l) => !isDeclaration(l) && l.slice(l.indexOf(': ') + 2).trim().length >= 12);
  const out = [...spaced(declarations, 60), ...spaced(bodyLines, 12)].map(clip);
  // A minified line: windows spread across it, each within what the read printed.
  for (const line of numbered.filter((l) => l.length > 2000)) {
    for (let i = 1; i <= 6; i++)
      out.push(line.slice(Math.floor((line.length * i) / 8), Math.floor((line.length * i) / 8) + 60));
  }
  const footer = body
    .split('\n')
    .reverse()
    .find((l) => l.trim() !== '' && !/^\d+: /.test(l));
  if (footer) out.push(clip(footer));
  return out;
}

// ------------------------------------------------------------------- search

function grepNeedles(text: string, ctx: NeedleContext): string[] {
  const lines = text.split('\n');
  if (ctx.tool === 'grep') {
    // DSH's grep: a file header, then `Line N: text` rows.
    const files = lines.filter(
      (l) => l !== '' && !l.startsWith('Line ') && !/^Found \d+ match/.test(l) && !l.startsWith('('),
    );
    const hits = lines.filter((l) => /^Line \d+: /.test(l));
    return [
      ...spaced(files, 30),
      ...spaced(hits, 40).map((l) => around(l, ctx.match)),
      ...lines.filter((l) => /^Found \d+ match/.test(l)),
    ].map(clip);
  }
  if (ctx.tool === 'glob')
    return [
      ...spaced(
        lines.filter((l) => l.includes('/')),
        30,
      ),
      ...spaced(rare(lines), 15),
    ].map(clip);
  const hits = lines.map((l) => /^([^:\s][^:]*):(\d+)[:-](.*)$/.exec(l)).filter((m) => m !== null);
  const out: string[] = [];
  for (const m of spaced(hits, 40)) {
    out.push(`${m[1]}:${m[2]}:`);
    out.push(around(m[3]!, ctx.match).trim());
  }
  return out.map(clip);
}

// ------------------------------------------------------------------ listings

const LS_LONG = /^[-dlcbps][rwxsStT-]{9}[.+@]?\s+\d+\s+\S+\s+\S+\s+[\d,]+\s+\S+\s+\S+\s+\S+\s(.+)$/;

function listingNeedles(text: string, command: string): string[] {
  const lines = text.split('\n').filter((l) => l !== '');
  const program = command.trim().split(/\s+/)[0];
  if (program === 'ls') {
    const out: string[] = [];
    const blocks = text.split(/\n\n/);
    const allNames: string[] = [];
    for (const block of blocks) {
      const rows = block.split('\n');
      if (rows[0]?.endsWith(':')) out.push(rows[0]);
      const names = rows
        .map((r) => LS_LONG.exec(r)?.[1])
        .filter((n): n is string => n !== undefined && n !== '.' && n !== '..');
      allNames.push(...names);
      if (names.length <= 6) out.push(...names);
    }
    const headers = out.filter((l) => l.endsWith(':'));
    return [
      ...spaced(headers, 80),
      ...spaced(
        out.filter((l) => !l.endsWith(':')),
        40,
      ),
      ...spaced(rare(allNames), 20),
      ...spaced(allNames, 20),
    ].map(clip);
  }
  if (program === 'du') {
    const rows = lines.map((l) => l.split('\t')).filter((r) => r.length === 2);
    const bytes = (s: string) => parseFloat(s) * ({ K: 1e3, M: 1e6, G: 1e9 }[s.slice(-1)] ?? 1);
    const largest = [...rows].sort((a, b) => bytes(b[0]!) - bytes(a[0]!)).slice(0, 10);
    const shallow = rows.filter((r) => r[1]!.split('/').length <= 3);
    return [...largest, ...spaced(shallow, 30)].map((r) => r.join('\t')).map(clip);
  }
  if (program === 'tree') {
    const summary = lines.filter((l) => /\d+ director(y|ies)/.test(l));
    const top = lines.filter((l) => /^[├└]── /.test(l));
    const names = lines.map((l) => l.replace(/^[│├└─\s ]+/, ''));
    return [...summary, ...spaced(top, 30), ...spaced(rare(names), 20)].map(clip);
  }
  // find and other path lists: directories (prefixes of other paths), rare names, sparse directories.
  const paths = lines;
  const dirs = new Set<string>();
  for (const p of paths) {
    const parent = p.slice(0, p.lastIndexOf('/'));
    if (parent) dirs.add(parent);
  }
  const perDir = new Map<string, string[]>();
  for (const p of paths)
    perDir.set(p.slice(0, p.lastIndexOf('/')), [...(perDir.get(p.slice(0, p.lastIndexOf('/'))) ?? []), p]);
  const sparse = [...perDir.values()].filter((v) => v.length <= 3).flat();
  return [
    ...spaced(
      [...dirs].filter((d) => paths.includes(d) || text.includes(`${d}/`)),
      50,
    ),
    ...spaced(rare(paths), 20),
    ...spaced(sparse, 20),
  ].map(clip);
}

// --------------------------------------------------------------- git outputs

const GENERATED =
  /(^|\/)(package-lock\.json|yarn\.lock|pnpm-lock\.yaml|Cargo\.lock|[^/]*\.min\.js|[^/]*\.snap)$|(^|\/)dist\//;

function diffNeedles(text: string): string[] {
  const out: string[] = [];
  const changed: string[] = [];
  let generated = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('diff --git ')) {
      out.push(line);
      generated = GENERATED.test(line.split(' b/').pop() ?? '');
    } else if (/^(\+\+\+|---) /.test(line) || /^commit [0-9a-f]{40}/.test(line)) out.push(line);
    else if (line.startsWith('@@')) out.push(line);
    else if (/^ \S.* \| +\d+/.test(line) || /^ \d+ files? changed/.test(line)) out.push(line);
    else if (/^[+-]/.test(line) && !generated && line.slice(1).trim().length >= 6) changed.push(line);
  }
  return [...spaced(out, 80), ...spaced(changed, 40)].map(clip);
}

function gitLogNeedles(text: string): string[] {
  const out: string[] = [];
  const lines = text.split('\n');
  // Graph edges (`* | \ /`) before a line are not part of it.
  const bare = (l: string) => l.replace(/^[*|\\/ ]*(?=commit [0-9a-f]{40}|Author:|Date:|\s{4}\S|$)/, '');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const full = /^commit ([0-9a-f]{40})/.exec(bare(line));
    if (full) {
      out.push(full[1]!);
      const subject = lines
        .slice(i + 1, i + 6)
        .map(bare)
        .find((l) => /^ {4}\S/.test(l));
      if (subject) out.push(subject.trim());
      continue;
    }
    const short = /^[*|\\/ ]*([0-9a-f]{7,12}) (.+)$/.exec(line);
    if (short) out.push(`${short[1]} ${short[2]}`);
    if (/^ \d+ files? changed/.test(line)) out.push(line.trim());
  }
  return spaced(out, 120).map(clip);
}

function gitNeedles(text: string, command: string): string[] {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (/\bblame\b/.test(command)) {
    const declarations = lines.filter((l) => /\)\s(export |import |def |class |fn |pub |struct )/.test(l));
    return [...spaced(declarations, 30), ...spaced(lines, 20)].map(clip);
  }
  // status and branch listings: every entry line.
  return spaced(
    lines.filter((l) => !/^\s*\(use "git/.test(l)).map((l) => l.trim()),
    80,
  ).map(clip);
}

// -------------------------------------------------------------------- tables

const BAD_STATE =
  /error|fail|crashloop|oomkilled|backoff|exited \([1-9]|unhealthy|pending|evicted|defunct|chargeback|\bZ\b|\b9\d%/i;

function tableNeedles(text: string, command: string): string[] {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const header = lines[0] ?? '';
  const rows = lines.slice(1);
  const sep = /\.csv\b/.test(command) ? ',' : /\.tsv\b/.test(command) ? '\t' : null;
  const cells = (row: string) => (sep ? row.split(sep) : row.trim().split(/\s+/));
  const out = [header];
  // Rows in a state that few rows share.
  const states = new Map<string, number>();
  for (const row of rows) {
    const state = BAD_STATE.exec(row)?.[0].toLowerCase();
    if (state) states.set(state, (states.get(state) ?? 0) + 1);
  }
  for (const row of rows) {
    const state = BAD_STATE.exec(row)?.[0].toLowerCase();
    if (state && states.get(state)! <= Math.max(3, rows.length * 0.1)) out.push(row);
  }
  // The row holding each numeric column's extreme, when it stands far out.
  const width = cells(header).length;
  for (let c = 0; c < width; c++) {
    const values = rows.map((r) => parseFloat(cells(r)[c] ?? '')).filter((v) => Number.isFinite(v));
    if (values.length < rows.length * 0.8 || values.length < 5) continue;
    const sorted = [...values].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    const max = sorted.at(-1)!;
    if (!(median > 0 && max > 5 * median)) continue;
    const far = rows.filter((r) => parseFloat(cells(r)[c] ?? '') > 10 * median);
    out.push(
      ...(far.length > 0 && far.length <= rows.length * 0.05
        ? far
        : [rows.find((r) => parseFloat(cells(r)[c] ?? '') === max)!]),
    );
  }
  return out.map(clip);
}

// -------------------------------------------------------------------- builds

const ERROR_LINE =
  /(^|[^\w-])(error|fatal|failed|failure|fail|not ok|panicked)([^\w-]|$)|\w*Error\b|^E\s+\S|✖|✗|\[exit code: \d+\]|^npm (ERR|error)/i;
const NOT_ERROR = /\b0 (errors?|failed|fail)\b|^# fail 0|ok \d+ -|errors?=0/i;
const LOCATION = /(?:[\w.@-]+\/)*[\w.@-]+\.(?:ts|tsx|js|mjs|cjs|py|c|h|rs|toml|json)(?::\d+(?::\d+)?|\(\d+,\d+\))/g;
const EXCERPT = /^\s*\d*\s*\|\s.*\S|^>\s+\S/;

function buildNeedles(text: string): string[] {
  const lines = text.split('\n');
  const errors: string[] = [];
  const locations: string[] = [];
  const excerpts: string[] = [];
  const warnings = lines.filter((l) => /warning[:[]/i.test(l));
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!ERROR_LINE.test(line) || NOT_ERROR.test(line)) continue;
    errors.push(line.trim());
    for (const m of line.matchAll(LOCATION)) locations.push(m[0]);
    // The location and source excerpt printed under the error (rustc ` --> `, gcc `  12 |`, pytest `>`).
    for (const next of lines.slice(i + 1, i + 7)) {
      if (/^\s*--> /.test(next)) for (const m of next.matchAll(LOCATION)) locations.push(m[0]);
      if (EXCERPT.test(next) && next.replace(/[\s|^~\d-]/g, '').length >= 4) excerpts.push(next.trimEnd());
    }
  }
  const listed = lines.filter(
    (l) => /^\S+\s+\d+\.\d+/.test(l) || /^[├└│`|+\s-]*[\w@./-]+@\d/.test(l) || /^[\w.-]+==\S+$/.test(l),
  );
  const summary = lines.filter((l) =>
    /^(added|removed|changed|up to date|audited|found) |\d+ (passed|failed)|^# (pass|fail|tests) |Tests? .*\d+ (failed|passed)/.test(
      l.trim(),
    ),
  );
  return [
    ...spaced(errors, 60),
    ...spaced(locations, 40),
    ...spaced(excerpts, 30),
    ...(warnings.length <= 20 ? warnings.map((w) => w.trim()) : spaced(warnings, 10).map((w) => w.trim())),
    ...spaced(listed, 15).map((l) => l.trim()),
    ...summary.map((l) => l.trim()),
  ].map(clip);
}

/** The needles of one capture, by its kind's rule; deduplicated, each verified to occur. */
export function pickNeedles(text: string, ctx: NeedleContext, language = ''): string[] {
  const command = ctx.command ?? '';
  const raw =
    ctx.kind === 'code' || ctx.kind === 'document'
      ? readNeedles(text, language)
      : ctx.kind === 'grep'
        ? grepNeedles(text, ctx)
        : ctx.kind === 'listing'
          ? listingNeedles(text, command)
          : ctx.kind === 'diff'
            ? diffNeedles(text)
            : ctx.kind === 'gitlog'
              ? gitLogNeedles(text)
              : ctx.kind === 'git'
                ? gitNeedles(text, command)
                : ctx.kind === 'table'
                  ? tableNeedles(text, command)
                  : buildNeedles(text);
  const framing = text.split('\n').filter((l) => /^\[(exit code: \d+|output truncated; full output: .*)\]$/.test(l));
  const seen = new Set<string>();
  return [...raw, ...framing].filter((n) => {
    if (n.length < 4 || seen.has(n) || !text.includes(n)) return false;
    seen.add(n);
    return true;
  });
}
