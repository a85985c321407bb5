// The table processor: whitespace-aligned tables (ps, kubectl get, docker ps,
// df, npm outdated, pip list) and CSV/TSV. The header always stays; rows that
// stand out (failure states, not-ready counts, rare values of a status-like
// column, extreme numbers) stay whole; the rest are grouped by shape (their
// status-like values) and each group keeps its first rows, the others counted
// in markers that name their original lines.
import { estimateFor, exactCosts } from '../costs.js';
import { DELIMITERS, FEATURE } from '../../engine/contract.js';
import type { TextAnalysis } from '../../engine/index.js';
import type { Processor, ProcessorInput, ProcessorOutput } from '../../types.js';
import { nonBlankHead } from '../head.js';
import { deadlineTick, ProcessorError, type Tick } from '../errors.js';
import { largestFitting, renderOnce, splitLines, targetOf } from '../fit.js';
import { linesOmission, omittedLines, plural } from '../markers.js';
import { keepPreserved } from '../keep-preserved.js';
import { type CellNumber, Column, medianDeviation, middleValue, rareCells, rareLimit } from '../../engine/index.js';
import { alignedCell, alignedCells, type ColumnCells, delimitedCells, splitCells } from './cells.js';
import { TableLayout } from './layout.js';
import type { Analysis, Detail, Table } from './types.js';

/** States that mean something is wrong or not done, in container, pod and process tables (a clean `Exited (0)` is not). */
const TROUBLE =
  /\b(?:Error|ERROR|Failed|FAILED|failed|CrashLoopBackOff|Exited(?! \(0\))|OOMKilled|Pending|Evicted|ImagePullBackOff|ErrImagePull|Terminating|NotReady|Unhealthy|unhealthy|Dead|Restarting|defunct|Unknown)\b/;
/** A readiness count short of its total (kubectl READY 0/1). */
const NOT_READY = /(?:^|\s)(\d+)\/(\d+)(?:\s|$)/;
/** Units a table's numbers are read in (src/engine/fields.ts parses the number). */
const UNIT = /^(?:[KMGTPE]i?B?|[kmgt]b?|%|m|s|ms)?$/;
/** Rules between a header and its rows: dashes, `+`/`|` joints (psql, sqlite3 -table) and box drawing (sqlite3 -box). */
const SEPARATOR = /^[-=+|:\s─━═┌┐└┘├┤┬┴┼╞╡╪╔╗╚╝╠╣╦╩╬]+$/;
/** psql's closing row count. */
const ROW_COUNT = /^\(\d+ rows?\)$/;

/** Splits a CSV/TSV line on `delimiter`, honouring double quotes (the field counts of the features kernel are its length). */
export function splitDelimited(line: string, delimiter: string): string[] {
  if (!line.includes('"')) return line.split(delimiter);
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === delimiter) {
      fields.push(field);
      field = '';
    } else field += c;
  }
  fields.push(field);
  return fields;
}

/** The delimiter every line of the sample splits into the same number (>= 2) of fields by, if any. */
function delimiterOf(sample: readonly string[]): string | null {
  for (const d of DELIMITERS) {
    const widths = sample.map((l) => splitDelimited(l, d).length);
    const n = widths[0]!;
    if (n >= 2 && widths.filter((w) => w === n).length >= 0.9 * widths.length) return d;
  }
  return null;
}

/**
 * Column starts of an aligned header (two or more spaces between names, as
 * kubectl and docker print), when the rows agree: a field never starts inside
 * another's text.
 */
function alignedStarts(header: string, rows: readonly string[]): number[] | null {
  const starts = [...header.matchAll(/(?:^|\s{2,})(\S)/g)].map((m) => m.index + m[0].length - 1);
  if (starts.length < 2) return null;
  const agrees = (l: string) => starts.every((s) => s === 0 || l.length <= s || l[s - 1] === ' ');
  return rows.filter(agrees).length >= 0.9 * rows.length ? starts : null;
}

/** Lines a header may sit under before the table (dpkg -l prints three lines of legend first). */
const PREAMBLE = 12;

/**
 * The header: the line over the first rule under a line of names (dpkg -l's
 * `+++-====-====`, psql's `----+----`), after any legend above it; with no
 * such rule, the first line with names (a box's top border is not the header).
 */
function headerOf(lines: readonly string[]): number {
  const names = (i: number) => lines[i] !== undefined && lines[i]!.trim() !== '' && !SEPARATOR.test(lines[i]!);
  for (let i = 1; i < Math.min(lines.length, PREAMBLE); i++)
    if (/[-─═=]/.test(lines[i]!) && SEPARATOR.test(lines[i]!) && names(i - 1)) return i - 1;
  return lines.findIndex((_, i) => names(i));
}

/**
 * Column starts a rule draws (`+++-=====-====`: its fill char, the most
 * common, starts a column after each joint), when the rows agree: dpkg's
 * one-space gaps (`ii  name`, `Architecture Description`) a header alone cannot show.
 */
function ruleStarts(rule: string | undefined, rows: readonly string[]): number[] | null {
  if (rule === undefined || !/[-─═=]/.test(rule) || !SEPARATOR.test(rule)) return null;
  const counts = new Map<string, number>();
  for (const c of rule) counts.set(c, (counts.get(c) ?? 0) + 1);
  const fill = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
  const starts = [0];
  for (let p = 1; p < rule.length; p++) if (rule[p] === fill && rule[p - 1] !== fill) starts.push(p);
  if (starts.length < 2) return null;
  const agrees = (l: string) => starts.every((s) => s === 0 || l.length <= s || l[s - 1] === ' ');
  return rows.filter(agrees).length >= 0.9 * rows.length ? starts : null;
}

function parse(text: string, tick: Tick): Table | null {
  const lines = splitLines(text).map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const header = headerOf(lines);
  if (header < 0) return null;
  const body = lines
    .map((_, i) => i)
    .filter((i) => i > header && lines[i]!.trim() !== '' && !SEPARATOR.test(lines[i]!) && !ROW_COUNT.test(lines[i]!));
  if (body.length === 0) return null;
  const sample = [lines[header]!, ...body.slice(0, 200).map((i) => lines[i]!)];
  const delimiter = delimiterOf(sample);
  let split: (line: string) => string[];
  let cells: ColumnCells;
  // Cells padded inside their delimiters (psql's ` 12 | paid `, a box's `│ 12  │`) are read trimmed.
  if (delimiter !== null) {
    split = (l) => {
      const fields = splitDelimited(l, delimiter);
      for (let k = 0; k < fields.length; k++) fields[k] = fields[k]!.trim();
      return fields;
    };
    cells = delimitedCells(lines, body, split(lines[header]!).length, delimiter, split, tick);
  } else {
    const sampled = body.slice(0, 200).map((i) => lines[i]!);
    const starts = ruleStarts(lines[header + 1], sampled) ?? alignedStarts(lines[header]!, sampled);
    const width = lines[header]!.trim().split(/\s+/).length;
    split = starts
      ? (l) => starts.map((_, k) => alignedCell(l, starts, k))
      : (l) => {
          const parts = l.trim().split(/\s+/);
          return parts.length > width ? [...parts.slice(0, width - 1), parts.slice(width - 1).join(' ')] : parts;
        };
    cells = starts ? alignedCells(lines, body, starts) : splitCells(lines, body, split, tick);
  }
  const rowOf = new Int32Array(lines.length).fill(-1);
  body.forEach((line, r) => {
    rowOf[line] = r;
  });
  return { lines, header, rows: body, rowOf, cells, columns: split(lines[header]!) };
}

/** A cell's number as the table compares it: sizes in bytes, other units as printed; null when not a number in a table's units. */
function numeric(cell: string, parsed: CellNumber | null | undefined): number | null {
  // Most numbers have no unit: the pattern is run on those that do.
  if (!parsed || cell.startsWith('+') || (parsed.unit !== '' && !UNIT.test(parsed.unit))) return null;
  // Upper-case size units only: a lower-case m is millicores or minutes, not mega.
  const size = ' KMGTPE'.indexOf(parsed.unit[0] ?? ' ');
  return size > 0 ? parsed.value * 1024 ** size : parsed.value;
}

/** Column names that say a row's state: the column rows are grouped by when there is one. */
const STATE_COLUMN = /status|state|^stat$|ready|health|result|level|severity/i;

function analyse(table: Table, tick: Tick): Analysis {
  const { columns, rows, lines } = table;
  const n = rows.length;
  const reasons = new Map<number, number>(); // row -> priority (lower first)
  const flag = (r: number, priority: number) => reasons.set(r, Math.min(priority, reasons.get(r) ?? priority));
  rows.forEach((line, r) => {
    tick();
    const text = lines[line]!;
    if (TROUBLE.test(text)) flag(r, 0);
    // Most rows hold no slash: the pattern is not run on them.
    const ready = text.includes('/') ? NOT_READY.exec(text) : null;
    if (ready && Number(ready[1]) < Number(ready[2]) && !/\b(?:Completed|Succeeded)\b/.test(text)) flag(r, 1);
  });
  // Status-like columns: few distinct values once digits are masked ("Up 3 hours" ~ "Up 9 hours").
  const categorical: { column: number; distinct: number; values: readonly string[]; cells: readonly string[] }[] = [];
  for (let c = 0; c < columns.length; c++) {
    tick();
    const column = new Column(table.cells(c));
    const cells = column.cells as readonly string[];
    const parsed = column.numbers();
    const numbers = parsed === null ? null : cells.map((cell, r) => numeric(cell, parsed[r]));
    let parsedCount = 0;
    for (const x of numbers ?? []) if (x !== null) parsedCount++;
    if (numbers !== null && parsedCount >= 0.8 * n) {
      const varies = cells.some((cell) => cell !== cells[0]);
      // Distinct integers in every row are identifiers (PID, order id): their extremes mean nothing.
      const ids = varies && numbers.every((x) => x !== null && Number.isInteger(x)) && allDistinct(cells);
      if (n >= 5 && !ids && varies) for (const r of extremes(numbers)) flag(r, 3);
    } else {
      const values = column.masked();
      const counts = column.counts();
      if (counts.size >= 2 && counts.size <= Math.max(2, Math.min(12, n / 5))) {
        categorical.push({ column: c, distinct: counts.size, values, cells });
        const few = Math.max(1, Math.floor(n * 0.05));
        // The rows are read only when some value is rare.
        if (n >= 10 && [...counts.values()].some((k) => k <= few))
          values.forEach((v, r) => {
            if (counts.get(v)! <= few) flag(r, 2);
          });
      }
    }
    // What is rare in the column, whatever it names: an empty cell where the
    // column is nearly always filled, a value few rows have, a number far
    // outside the column's bulk (src/engine/fields.ts).
    for (const r of rareCells(column)) flag(r, 2);
  }
  const byState = categorical.find((c) => STATE_COLUMN.test(columns[c.column] ?? ''));
  const label = byState ?? [...categorical].sort((a, b) => a.distinct - b.distinct)[0];
  const name = label ? columns[label.column] || `column ${label.column + 1}` : '';
  const group = label ? groupNames(name, label.values, label.cells) : rows.map(() => 'rows');
  const standouts = [...reasons].sort((a, b) => a[1] - b[1] || a[0] - b[0]).map(([r]) => r);
  return { standouts, group };
}

/** Whether no two cells are equal (read up to the first repeat: amounts repeat early, ids never). */
function allDistinct(cells: readonly string[]): boolean {
  const seen = new Set<string>();
  for (const cell of cells) {
    if (seen.has(cell)) return false;
    seen.add(cell);
  }
  return true;
}

/**
 * Each row's group as its markers name it: `STATUS=Running`. A group is its
 * cells with digits masked (`Up 3 hours` ~ `Up 9 hours`), named by the cell
 * itself where every row of it holds the same one (`Architecture=amd64`, not
 * `amd#`).
 */
function groupNames(name: string, masked: readonly string[], cells: readonly string[]): string[] {
  const one = new Map<string, string | null>();
  masked.forEach((v, r) => {
    const seen = one.get(v);
    if (seen === undefined) one.set(v, cells[r]!);
    else if (seen !== null && seen !== cells[r]) one.set(v, null);
  });
  // One label string per group, not per row: the layout's map reads each row's.
  const labels = new Map<string, string>();
  for (const [v, cell] of one) labels.set(v, `${name}=${cell ?? v}`);
  return masked.map((v) => labels.get(v)!);
}

/** How many times the median's size a far value must be to stand out beyond the five farthest (as in src/engine/fields.ts). */
const MAGNITUDE = 10;

/**
 * Rows with the largest value of a numeric column, the five values farthest
 * from the median (past 6 robust deviations), and every far value an order of
 * magnitude past the median while such rows are rare (rareLimit): the nine
 * busy processes of a ps aux at 3-200 %CPU among 170 at 0-0.6. The fields
 * rule's floor of 1 for counters is left out: a share like %CPU has a median
 * under 1.
 */
function extremes(numbers: readonly (number | null)[]): number[] {
  const rows: number[] = [];
  for (let r = 0; r < numbers.length; r++) if (numbers[r] !== null) rows.push(r);
  const values = new Float64Array(rows.length);
  for (let k = 0; k < rows.length; k++) values[k] = numbers[rows[k]!]!;
  const median = middleValue(values);
  const mad = medianDeviation(values, median);
  const distance = (k: number) => Math.abs(values[k]! - median);
  // Positions into rows and values, farthest first.
  const far: number[] = [];
  if (mad > 0) for (let k = 0; k < values.length; k++) if (distance(k) > 6 * mad) far.push(k);
  far.sort((a, b) => distance(b) - distance(a));
  const outliers = far.filter((k) => Math.abs(values[k]!) >= MAGNITUDE * Math.abs(median));
  let top = 0;
  for (let k = 1; k < values.length; k++) if (values[k]! > values[top]!) top = k;
  const rare = outliers.length <= rareLimit(numbers.length) ? outliers : [];
  return [...new Set([top, ...far.slice(0, 5), ...rare].map((k) => rows[k]!))];
}

function process(input: ProcessorInput): ProcessorOutput {
  const tick = deadlineTick('table', input.expired);
  const table = parse(input.text, tick);
  if (!table || table.columns.length < 2 || table.rows.length < 2)
    throw new ProcessorError('table', 'no header with rows');
  const target = targetOf(input);
  const estimate = estimateFor(input);
  if (input.level === 'lossless' && estimate(input.text) <= target)
    return { text: input.text, omitted: {}, omissions: [] };
  const analysis = analyse(table, tick);
  const forced: number[] = [];
  table.rows.forEach((i, r) => {
    if (input.preserve.some((p) => p !== '' && table.lines[i]!.includes(p))) forced.push(r);
  });
  const layout = new TableLayout(table, analysis, forced, tick);
  const pieces = renderOnce((d: Detail) => layout.pieces(d));
  const view = (d: Detail) => layout.output(pieces(d));
  // Each try is priced from its lines' and markers' costs where they are the estimator's own, else rendered.
  const costs = exactCosts(input);
  const tokens = (d: Detail) => (costs ? layout.tokens(pieces(d), costs) : estimate(view(d).text));
  const fits = (d: Detail) => tokens(d) <= target;
  const all = analysis.standouts.length;
  // Light keeps the first few rows of each shape whatever the budget (the
  // markers count the rest), aggressive fewer; both shrink further to fit.
  const natural: Detail = {
    perGroup: input.level === 'lossless' ? Infinity : input.level === 'light' ? 4 : 2,
    standouts: all,
    groups: 6,
  };
  let detail = natural;
  if (!fits(natural)) {
    const perGroup = largestFitting(0, Math.min(natural.perGroup, table.rows.length), (k) =>
      fits({ ...natural, perGroup: k }),
    );
    // Below aggressive, rows that stand out stay while the output fits maxTokens, not only the target.
    const room = input.level === 'aggressive' ? target : input.maxTokens;
    const standouts = fits({ ...natural, perGroup })
      ? all
      : largestFitting(0, all, (k) => tokens({ ...natural, perGroup: 0, standouts: k }) <= room);
    detail = { ...natural, perGroup, standouts };
  }
  let { text, omitted, omissions } = view(detail);
  text = keepPreserved(text, input.text, input.preserve);
  if (estimate(text) > input.maxTokens) {
    ({ text, omitted, omissions } = view({ perGroup: 0, standouts: 0, groups: 2 }));
  }
  if (estimate(text) > input.maxTokens) {
    text = omittedLines(
      0,
      table.lines.length,
      `${plural(table.rows.length, 'row')} of a table too wide to show under the ceiling`,
    );
    omitted = { 'table rows (counted)': table.rows.length };
    omissions = [linesOmission(0, table.lines.length)];
  }
  if (estimate(text) >= estimate(input.text)) return { text: input.text, omitted: {}, omissions: [] };
  return { text, omitted, omissions };
}

/**
 * CSV/TSV (one delimiter splits every line alike, under a header of short
 * names), or a header of column names (words starting upper-case, or %, #)
 * whose columns the rows line up with, left- or right-aligned: log lines
 * under a capitalised first line do not.
 */
function sniff(analysis: TextAnalysis): number {
  const { shape, fields } = analysis.features;
  const head = (i: number) => analysis.headLine(i);
  const nonBlank = nonBlankHead(analysis, 200);
  const rule = (i: number | undefined) => i !== undefined && (shape[i]! & FEATURE.SEPARATOR) !== 0;
  // Rules (a top border, the line under the header) and psql's `(N rows)` are not rows.
  // A rule under a line of names, after any legend above it (dpkg -l), marks the header as parse's headerOf does.
  const drawn = (k: number) => rule(nonBlank[k]) && /[-─═=]/.test(head(nonBlank[k]!));
  const ruleAt = nonBlank.findIndex((_, k) => k > 0 && k < PREAMBLE && drawn(k) && !rule(nonBlank[k - 1]));
  const first = ruleAt > 0 ? ruleAt - 1 : nonBlank.findIndex((i) => !rule(i));
  const ruled = first >= 0 && drawn(first + 1);
  const picked = nonBlank.slice(Math.max(0, first)).filter((i) => !rule(i) && !ROW_COUNT.test(head(i)));
  if (picked.length < 3) return 0;
  const lines = picked.map(head);
  const header = lines[0]!;
  // The delimiter every line splits into the same number (>= 2) of fields by, from the features' field counts.
  const found = DELIMITERS.findIndex((_, d) => {
    const n = fields[picked[0]! * DELIMITERS.length + d]!;
    return n >= 2 && picked.filter((i) => fields[i * DELIMITERS.length + d] === n).length >= 0.9 * picked.length;
  });
  const delimiter = found < 0 ? null : DELIMITERS[found]!;
  if (delimiter !== null) {
    const names = splitDelimited(header, delimiter);
    if (/^\d/.test(header) || names.some((n) => n.length > 40)) return 0.3;
    // Two comma-separated fields are also any list of `key: value,` lines: not enough alone.
    return delimiter === '\t' ? 0.9 : names.length >= 3 ? 0.85 : 0.45;
  }
  const names = header.trim().split(/\s{2,}|\s(?=[A-Z%#])/);
  const upper = names.every((n) => /^(?:[A-Z%#]|\d[A-Za-z])[\w%#()/.: -]*$/.test(n) && !/\d{2}/.test(n));
  // Lower-case column names (sqlite3 -column, column -t): one word each, two spaces apart, three or more.
  const lower =
    names.length >= 3 &&
    header.trim().split(/\s{2,}/).length === names.length &&
    names.every((n) => /^[a-z_][\w%#()/.-]*$/.test(n));
  if (names.length < 2 || !(upper || lower || ruled)) return 0;
  const columns = [...header.matchAll(/\S+/g)].map((m) => [m.index, m.index + m[0].length] as const);
  const rows = lines.slice(1, 101);
  let aligned = 0;
  for (const row of rows) {
    for (const [start, end] of columns) {
      const left = (start === 0 || row[start - 1] === ' ') && row[start] !== undefined && row[start] !== ' ';
      const right = row[end - 1] !== undefined && row[end - 1] !== ' ' && (end >= row.length || row[end] === ' ');
      if (left || right) aligned++;
    }
  }
  const share = rows.length === 0 ? 0 : aligned / (rows.length * columns.length);
  if (upper || ruled) return share >= 0.85 ? 0.9 : share >= 0.7 ? 0.6 : 0.2 * share;
  return share >= 0.85 ? 0.85 : 0;
}

export const tableProcessor: Processor = {
  kind: 'table',
  lineShaped: true,
  commands: [
    'ps',
    'kubectl get',
    'docker ps',
    'docker images',
    'df',
    'npm outdated',
    'pip list',
    'pip3 list',
    'sqlite3',
    'psql',
    'column',
  ],
  fileExtensions: ['csv', 'tsv'],
  sniff,
  process,
};
