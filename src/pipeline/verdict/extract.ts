// Reads a tool output's verdict from its raw text: test totals, failing tests,
// compiler diagnostic counts with the first error's place, and how the run
// ended. Each fact names the original line that states it, so the pipeline can
// demand that line verbatim in whatever it shows. Only the lines the analysis
// cues are read (a word some rule needs, or ANSI escapes: the classify
// kernel's VerdictCue); a line is tried only against the rules that can start
// with its first character (see rules.ts), and lines longer than any verdict
// line are skipped unread, so a 50 MB line or an escape-code storm costs
// nothing here past the analysis: the pipeline passes the one it has; a caller
// without one pays for a line table and the classify pass of the text.
import { createBackend, LineFlag, TextAnalysis } from '../../engine/index.js';
import { plural } from '../../processors/markers.js';
import { count } from '../../text/strings.js';
import { RULES, type Reading, type Rule, type RuleKind } from './rules.js';

/** Longer lines are not read (a C++ template error can run to a couple of thousand characters). */
const MAX_LINE_CHARS = 2048;

/** A fact line longer than this is demanded by its start: enough to find it, not a whole paragraph. */
const MAX_KEEP_CHARS = 240;

/** Failing tests named (and demanded) at most: past them the totals speak. */
const MAX_NAMED_FAILURES = 20;

/** The notice's verdict line stops (with `; …`) before the part that would take it past this. */
export const MAX_VERDICT_CHARS = 200;

/** Exit-status lines kept per tool (a make -k run can print hundreds): the first ones and the latest. */
const MAX_EXIT_LINES = 4;

const ANSI = /\u001b(?:\[[0-9;?]*[ -/]*[@-~]|\][^\u0007\u001b\n]*(?:\u0007|\u001b\\)|[@-Z\\-_])/g;

/** A CI runner's timestamp before each line (GitHub Actions' raw logs). */
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z /;

/** A CI step's tag before a tool's own line: Jenkins' `[Build on CentOS 7] `, Ant's `[exec] `. */
const TAG = /^\[[^\]\n]{1,40}\] +/;

/** rustc's location line under a diagnostic header: ` --> src/main.rs:4:9`. */
const ARROW = /^--> ([^\s:][^:\n]*:\d+:\d+)$/;

/** `first-warning`: the first warning of a tool that printed warnings only. */
export type FactKind = Exclude<RuleKind, 'error' | 'warning'> | 'first-error' | 'first-warning';

export interface VerdictFact {
  readonly kind: FactKind;
  readonly tool: string;
  /** 1-based number of the original line stating the fact. */
  readonly line: number;
  /** That line, verbatim (a trailing CR and trailing blanks aside). */
  readonly text: string;
  /**
   * What the shown output must contain for the fact to count as kept: the line
   * trimmed, or where it holds ANSI escapes its longest run without one (the
   * log processor shows lines with their escapes removed).
   */
  readonly keep: string;
  readonly reading: Reading;
}

export interface TestTotals {
  readonly failed: number;
  readonly passed?: number;
  readonly skipped?: number;
  readonly total?: number;
}

export interface ToolDiagnostics {
  readonly tool: string;
  readonly errors: number;
  readonly warnings: number;
  /** Where its first error is, `file:line[:col]`. */
  readonly firstError?: string | undefined;
}

export interface ExitStatus {
  readonly tool: string;
  readonly status: string;
}

export interface Verdict {
  /** In line order. */
  readonly facts: readonly VerdictFact[];
  readonly tests: TestTotals | null;
  readonly diagnostics: readonly ToolDiagnostics[];
  /** The last status of each tool that reported one. */
  readonly exits: readonly ExitStatus[];
  /** Failing tests found past the MAX_NAMED_FAILURES named ones. */
  readonly unnamedFailures: number;
  /** One line for the notice: `verdict: 2 of 600 tests failed; tsc: 1 error, first at src/a.ts:3:7`. */
  readonly line: string;
}

/** Rules by the first character of the lines they can match, in table order; rules for any character in every list. */
const byFirst = new Map<string, Rule[]>();
const anyFirst = RULES.filter((rule) => rule.first === '');
for (const rule of RULES) {
  for (const c of rule.first)
    if (!byFirst.has(c))
      byFirst.set(
        c,
        RULES.filter((r) => r.first === '' || r.first.includes(c)),
      );
}

function keepOf(raw: string): string {
  let best = '';
  if (!raw.includes('\u001b')) best = raw.trim();
  else {
    for (const piece of raw.split(ANSI)) {
      const trimmed = piece.trim();
      if (trimmed.length > best.length) best = trimmed;
    }
  }
  if (best.length <= MAX_KEEP_CHARS) return best;
  // Never end on half a surrogate pair.
  const end = (best.charCodeAt(MAX_KEEP_CHARS - 1) & 0xfc00) === 0xd800 ? MAX_KEEP_CHARS - 1 : MAX_KEEP_CHARS;
  return best.slice(0, end);
}

/** What the rules see of a line: no ANSI escapes, no CI timestamp, no blanks around it. */
export function bodyOf(raw: string): string {
  let plain = raw.includes('\u001b') ? raw.replace(ANSI, '') : raw;
  if (plain.charCodeAt(0) <= 57 && plain.charCodeAt(0) >= 48) plain = plain.replace(TIMESTAMP, '');
  return plain.trim();
}

/** A CI step's tag before the line: what follows it, which the rules are tried on too (once), or null. */
export function afterTag(body: string): string | null {
  if (body.charCodeAt(0) !== 91) return null;
  const tag = TAG.exec(body);
  return tag ? body.slice(tag[0].length) : null;
}

interface Counted {
  errors: number;
  warnings: number;
  countedErrors?: number;
  countedWarnings?: number;
  firstError?: string | undefined;
  firstWarning?: { line: number; text: string; reading: Reading };
}

class Reader {
  readonly facts: VerdictFact[] = [];
  private readonly keeps = new Set<string>();
  private readonly named = new Set<string>();
  private readonly diagnostics = new Map<string, Counted>();
  private readonly namesByTool = new Map<string, number>();
  /** Per tool, its exit-status facts kept so far. */
  private readonly exitFacts = new Map<string, VerdictFact[]>();
  /** Tools a line of a rule that is not weak was found for. */
  private readonly tools = new Set<string>();
  /** Lines of weak rules, applied at the end if their tool was found otherwise. */
  private readonly weak: { rule: Rule; tool: string; line: number; raw: string; reading: Reading }[] = [];
  /** A rustc header waiting for its ` --> ` line. */
  private pending: { line: number; text: string; reading: Reading; tool: string } | null = null;

  /** Line `line` may be the ` --> ` line of a rustc header read just before (it need not be cued). */
  awaitsArrow(line: number): boolean {
    return this.pending !== null && line - this.pending.line <= 2;
  }

  add(kind: FactKind, tool: string, line: number, text: string, reading: Reading): VerdictFact | null {
    const keep = keepOf(text);
    if (keep === '' || this.keeps.has(keep)) return null;
    this.keeps.add(keep);
    const fact = { kind, tool, line, text, keep, reading };
    this.facts.push(fact);
    return fact;
  }

  /** An exit status: past MAX_EXIT_LINES of one tool, the latest replaces the one kept last. */
  private exit(tool: string, line: number, raw: string, reading: Reading): void {
    const kept = this.exitFacts.get(tool) ?? [];
    this.exitFacts.set(tool, kept);
    if (kept.length === MAX_EXIT_LINES) {
      const latest = kept.pop()!;
      this.facts.splice(this.facts.lastIndexOf(latest), 1);
      this.keeps.delete(latest.keep);
    }
    const fact = this.add('exit-status', tool, line, raw, reading);
    if (fact) kept.push(fact);
  }

  read(line: number, raw: string): void {
    if (raw.length > MAX_LINE_CHARS) return;
    const body = bodyOf(raw);
    if (body === '') return;
    if (this.pending && line - this.pending.line > 2) this.pending = null;
    if (this.pending && body.startsWith('-->')) {
      const arrow = ARROW.exec(body.replace(/^--> +/, '--> '));
      if (arrow) {
        const { line: at, text, reading, tool } = this.pending;
        this.pending = null;
        this.diagnostic(tool, at, text, { ...reading, location: arrow[1]! }, { line, text: raw });
      }
      return;
    }
    if (this.match(line, raw, body)) return;
    const after = afterTag(body);
    if (after !== null) this.match(line, raw, after);
  }

  private match(line: number, raw: string, body: string): boolean {
    if (body === '') return false;
    const rules = byFirst.get(body[0]!) ?? anyFirst;
    for (const rule of rules) {
      if (rule.contains !== undefined && !body.includes(rule.contains)) continue;
      const match = rule.pattern.exec(body);
      if (match === null) continue;
      const reading = rule.read?.(match) ?? {};
      const tool = reading.tool ?? rule.tool;
      if (rule.weak) this.weak.push({ rule, tool, line, raw, reading });
      else this.apply(rule, tool, line, raw, reading);
      return true;
    }
    return false;
  }

  private apply(rule: Rule, tool: string, line: number, raw: string, reading: Reading): void {
    if (!rule.needsArrow) this.tools.add(tool);
    switch (rule.kind) {
      case 'error':
      case 'warning':
        if (rule.needsArrow) this.pending = { line, text: raw, reading, tool };
        else this.diagnostic(tool, line, raw, reading);
        return;
      case 'failing-test': {
        const name = `${tool}\u0000${reading.name ?? raw}`;
        if (this.named.has(name)) return;
        this.named.add(name);
        this.namesByTool.set(tool, (this.namesByTool.get(tool) ?? 0) + 1);
        if (this.named.size <= MAX_NAMED_FAILURES) this.add('failing-test', tool, line, raw, reading);
        return;
      }
      case 'exit-status':
        this.exit(tool, line, raw, reading);
        this.count(tool, reading);
        return;
      case 'diagnostic-count':
        this.add('diagnostic-count', tool, line, raw, reading);
        this.count(tool, reading);
        return;
      default:
        this.add(rule.kind, tool, line, raw, reading);
    }
  }

  private counted(tool: string): Counted {
    const counted = this.diagnostics.get(tool) ?? { errors: 0, warnings: 0 };
    this.diagnostics.set(tool, counted);
    return counted;
  }

  /** A compiler's own count: the largest it printed (cargo repeats it per crate and in its last line). */
  private count(tool: string, reading: Reading): void {
    if (reading.errors === undefined && reading.warnings === undefined) return;
    const counted = this.counted(tool);
    if (reading.errors !== undefined) counted.countedErrors = Math.max(counted.countedErrors ?? 0, reading.errors);
    if (reading.warnings !== undefined)
      counted.countedWarnings = Math.max(counted.countedWarnings ?? 0, reading.warnings);
  }

  private diagnostic(
    tool: string,
    line: number,
    raw: string,
    reading: Reading,
    arrow?: { line: number; text: string },
  ): void {
    this.tools.add(tool);
    const counted = this.counted(tool);
    counted.errors += reading.errors ?? 0;
    counted.warnings += reading.warnings ?? 0;
    if (reading.warnings && counted.firstWarning === undefined) counted.firstWarning = { line, text: raw, reading };
    if (!reading.errors || counted.firstError !== undefined) return;
    counted.firstError = reading.location ?? '';
    this.add('first-error', tool, line, raw, reading);
    if (arrow) this.add('first-error', tool, arrow.line, arrow.text, { location: reading.location! });
  }

  verdict(): Verdict | null {
    for (const { rule, tool, line, raw, reading } of this.weak)
      if (this.tools.has(tool)) this.apply(rule, tool, line, raw, reading);
    for (const [tool, c] of this.diagnostics) {
      // A build with warnings only: its first warning stands for them.
      if (c.firstError === undefined && c.firstWarning && (c.countedErrors ?? 0) === 0) {
        const { line, text, reading } = c.firstWarning;
        this.add('first-warning', tool, line, text, reading);
        c.firstError = reading.location;
      }
    }
    if (this.facts.length === 0) return null;
    this.facts.sort((a, b) => a.line - b.line);
    const tests = this.tests();
    const diagnostics: ToolDiagnostics[] = [];
    for (const [tool, c] of this.diagnostics) {
      const errors = c.countedErrors ?? c.errors;
      const warnings = c.countedWarnings ?? c.warnings;
      if (errors === 0 && warnings === 0) continue;
      diagnostics.push({ tool, errors, warnings, ...(c.firstError ? { firstError: c.firstError } : {}) });
    }
    const last = new Map<string, string>();
    for (const fact of this.facts)
      if (fact.kind === 'exit-status' && fact.reading.status) last.set(fact.tool, fact.reading.status);
    const exits = [...last].map(([tool, status]) => ({ tool, status }));
    const unnamedFailures = Math.max(0, this.named.size - MAX_NAMED_FAILURES);
    return {
      facts: this.facts,
      tests,
      diagnostics,
      exits,
      unnamedFailures,
      line: verdictLine(tests, diagnostics, exits),
    };
  }

  /** Totals over every runner that printed some; a runner that prints none (go test) counts its failing tests. */
  private tests(): TestTotals | null {
    const byTool = new Map<string, { failed?: number; passed?: number; skipped?: number; total?: number }>();
    for (const fact of this.facts) {
      if (fact.kind !== 'tests') continue;
      const sums = byTool.get(fact.tool) ?? {};
      for (const key of ['failed', 'passed', 'skipped', 'total'] as const) {
        const value = fact.reading[key];
        if (value !== undefined) sums[key] = (sums[key] ?? 0) + value;
      }
      byTool.set(fact.tool, sums);
    }
    for (const [tool, names] of this.namesByTool) if (!byTool.has(tool)) byTool.set(tool, { failed: names });
    // A runner that prints its counts but no total (mocha): they add up to it.
    // One that prints a total but no passed count (maven, unittest, rspec): the total less the failed and skipped.
    for (const sums of byTool.values()) {
      if (sums.total === undefined && sums.passed !== undefined)
        sums.total = sums.passed + (sums.failed ?? 0) + (sums.skipped ?? 0);
      if (sums.passed === undefined && sums.total !== undefined)
        sums.passed = Math.max(0, sums.total - (sums.failed ?? 0) - (sums.skipped ?? 0));
    }
    if (byTool.size === 0) return null;
    const all: { failed: number; passed?: number; skipped?: number; total?: number } = { failed: 0 };
    for (const sums of byTool.values()) {
      all.failed += sums.failed ?? 0;
      for (const key of ['passed', 'skipped', 'total'] as const)
        if (sums[key] !== undefined) all[key] = (all[key] ?? 0) + sums[key]!;
    }
    return all;
  }
}

/** The tests part of the verdict line: a total counts skipped tests, so "passed" is the runner's passed count. */
function testsPhrase(tests: TestTotals): string {
  const skipped = tests.skipped ? `, ${count(tests.skipped)} skipped` : '';
  if (tests.failed > 0) {
    const of =
      tests.total !== undefined && tests.total >= tests.failed
        ? `${count(tests.failed)} of ${plural(tests.total, 'test')}`
        : plural(tests.failed, 'test');
    return `${of} failed${skipped}`;
  }
  return tests.passed === undefined
    ? `no test failed${skipped}`
    : `${plural(tests.passed, 'test')} passed, none failed${skipped}`;
}

function verdictLine(
  tests: TestTotals | null,
  diagnostics: readonly ToolDiagnostics[],
  exits: readonly ExitStatus[],
): string {
  const parts: string[] = [];
  if (tests) parts.push(testsPhrase(tests));
  for (const d of diagnostics) {
    const counts = [d.errors > 0 ? plural(d.errors, 'error') : '', d.warnings > 0 ? plural(d.warnings, 'warning') : '']
      .filter(Boolean)
      .join(', ');
    // A long path by its file's name only: the whole path is in the line shown.
    const where = d.firstError;
    const at =
      where && where.length > 40 ? where.slice(Math.max(where.lastIndexOf('/'), where.lastIndexOf('\\')) + 1) : where;
    parts.push(`${d.tool}: ${counts}${at ? `, first at ${at}` : ''}`);
  }
  // A compiler's status (`could not compile`) says no more than its counts.
  const counted = new Set(diagnostics.map((d) => d.tool));
  for (const { tool, status } of exits)
    if (!counted.has(tool)) parts.push(tool === 'exit' ? status : `${tool}: ${status}`);
  let line = 'verdict:';
  for (const [i, part] of parts.entries()) {
    if (i > 0 && line.length + part.length + 2 > MAX_VERDICT_CHARS) return `${line}; …`;
    line += `${i > 0 ? ';' : ''} ${part}`;
  }
  return line;
}

/** Lines some rule may match: a word the rules need (the classify kernel's VerdictCue), or ANSI escapes, which the kernel reads past and the rules do not. */
export const VERDICT_CUED = LineFlag.VerdictCue | LineFlag.Ansi;

/**
 * Whether the analysis line `i` is part of a line too long to be a verdict
 * line, counted as the reader always has: from line feed to line feed (a lone
 * CR breaks lines too, but a progress bar's pieces of a 50 KB line stay
 * unread). Lines are asked in increasing order: a run of lone-CR pieces is
 * measured once.
 */
function tooLong(text: string, lines: TextAnalysis['lines']): (i: number) => boolean {
  const { count, start, end } = lines;
  const loneCr = (at: number) => text.charCodeAt(at) === 13 && text.charCodeAt(at + 1) !== 10;
  let last = -1;
  let long = false;
  return (i) => {
    if (i > last) {
      let first = i;
      while (first > 0 && loneCr(end[first - 1]!)) first--;
      last = i;
      while (last < count - 1 && loneCr(end[last]!)) last++;
      // The span up to its line feed: a CRLF's CR counts, as in the text the reader used to slice.
      const stop = text.charCodeAt(end[last]!) === 13 ? end[last]! + 1 : end[last]!;
      long = stop - start[first]! > MAX_LINE_CHARS + 1;
    }
    return long;
  };
}

/**
 * The verdict facts of a tool output, or null when it states none. Never
 * throws on any string. `analysis`, the analysis of `text` where the caller
 * has one, says which lines are cued (one is made otherwise).
 */
export function readVerdict(text: string, analysis?: TextAnalysis): Verdict | null {
  const record = analysis?.text === text ? analysis : new TextAnalysis(text, createBackend());
  const lines = record.lines;
  const flags = record.classes.flags;
  const long = tooLong(text, lines);
  const reader = new Reader();
  for (let i = 0; i < lines.count; i++) {
    if ((flags[i]! & VERDICT_CUED) === 0 && !reader.awaitsArrow(i + 1)) continue;
    if (long(i)) continue;
    reader.read(i + 1, text.slice(lines.start[i], lines.end[i]).trimEnd());
  }
  return reader.verdict();
}
