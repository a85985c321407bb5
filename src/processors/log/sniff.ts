// Is this text a log? Unclaimed text goes to the gentle text processor, so the
// log processor (which samples lines) must claim real logs by what marks them:
// timestamps, severity fields, build steps, compiler diagnostics with their
// source excerpts, test-runner lines, stack frames. Prose, source code and
// listings carry few of these.

import type { TextAnalysis } from '../../engine/index.js';
import { DATED_BLAME_LINE } from '../blame.js';

/** Timestamps: HH:MM:SS, dates, dmesg's `[    0.000000]`, epoch seconds. */
const TIME = /\b\d{1,2}:\d{2}:\d{2}\b|\b\d{4}[-/.]\d{1,2}[-/.]\d{1,2}\b|^\[\s*\d+\.\d+\]|\b1[0-6]\d{8}\b/;

/** A severity field: at the start, bracketed, after a timestamp/pid column, or keyed. */
const SEVERITY =
  /(?:^|[\s[|(<])(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|SEVERE|FATAL|CRITICAL)(?:[\]\s:|>)]|$)|\[(?:notice|error|warn|warning|info|debug|crit|alert|emerg)\]|\b(?:level|lvl|severity)=\w|^(?:npm|yarn|pnpm) (?:ERR|error|WARN|warn|notice|http|timing|verb|info|sill)\b|^[VDIWEF]\/\w/;

/**
 * Build and packaging steps: bracketed step tags, make/ninja/cmake progress, compiler invocations,
 * cargo/npm verbs, and the bare source names MSVC's cl and IAR echo per compiled file.
 */
const BUILD =
  /^\s*\[[^\]\n]{1,40}\](?:[\s:]|$)|^make(?:\[\d+\])?: |^\s*\[\s*\d+%\]|^\s*(?:gcc|g\+\+|cc|c\+\+|clang|clang\+\+|ld|ar|javac|cl|link|cmake|nvcc|rustc|CC|CXX|CCLD|LD|AR)(?:\.exe)?\s|^\s*(?:Compiling|Checking|Finished|Running|Building|Linking|Downloading|Downloaded|Installing|Collecting|Fresh|Updating|Resolving|Generating|Scanning|Processing|Executing|Testing|Packaging|Done|Build|BUILD|Started|Deleting|Copying|Creating|Touching|Restoring|Target)\b|\.exe\s+\/|^> Task :|^\s*Project "|^\d+>|^added \d+ packages?|^> \S+@\S+ \S+|^-- |^[\w.+-]+\.(?:c|cc|cpp|cxx|m|mm|s|asm)$/;

/**
 * Compiler and linter diagnostics and their source excerpts (gcc/clang, rustc, tsc, msbuild, javac,
 * eslint's `12:5  error  message  rule`, vitest's `  11| code`), and tsc's closing count and file table.
 * An excerpt's `N |` is not a psql row: those have more ` | ` cells after it.
 */
const DIAGNOSTIC =
  /(?:^|[\s:)])(?:fatal error|error|warning|note|remark|help)(?:\s*\[?[\w-]*\d+\]?)?\s*:|\(\d+(?:,\d+)?\)\s*:\s|:\d+(?::\d+)?:\s|^\s*-->\s|^\s*\d*\s+\|(?:\s|$)(?!.*\s\|\s)|^\s*\d+\|(?:\s|$)|^\s*[~^]+[~^\s]*$|^\s*= (?:note|help):|- error TS\d+|^\s+\d+:\d+\s+(?:error|warning)\s|^Found \d+ errors?\b|^Errors\s+Files$|^\s+\d+\s+\S+:\d+$/i;

/** tsc --pretty's source excerpt: the line number in reverse video (matched before colours are stripped). */
const EXCERPT_NUMBER = /^\u001b\[7m\s*\d*\s*\u001b\[0m/;

/**
 * Test runners (jest/vitest/mocha/TAP/go/pytest/cargo, JUnit/TestNG XML reports) and stack traces.
 * TAP (node --test) also: its version line, plan `1..N`, `# Subtest:` and `# tests N` comments, and the
 * YAML block under each test (`---`, `duration_ms: 1.2`, a failure's `location:`, `expected:`, `stack: |-`,
 * `...`), which is most of its lines.
 */
const TEST =
  /^TAP version \d+$|^\s+(?:location|failureType|error|code|name|expected|actual|operator|stack):\s|^\s*(?:RUN\s+v\d|(?:FAIL|PASS)\s)|^\s*(?:Test Files|Tests|Duration|Start at)\s{2,}\S|^\s*[A-Z]\w*(?:Error|Exception)(?: \[\w+\])?: |^[-+] (?:Expected|Received)\b|^\s*test at \S+:\d+:\d+$|^(?:✖|ℹ) |^[.X]{2,}$|^\s*(?:---|\.\.\.)$|^\s*duration_ms:\s|^# (?:Subtest|tests|suites|pass|fail|cancelled|skipped|todo|duration_ms)\b|^\d+\.\.\d+$|^\s*(?:✓|✔|✗|✘|✖|×|√|❯|›|●|⎯)|^\s*(?:ok|not ok)\s+\d|^(?:ok|FAIL|PASS|---)\s|\b(?:PASSED|FAILED|SKIPPED|XFAIL|XPASS)\b|^(?:={3,}|-{3,}|_{3,}|\*{3,})|^\s*(?:Tests?|Test Suites|Test Files|Snapshots|Duration|Time):\s|^\s*at\s+\S|^\s*File "|^Traceback|^Caused by:|^E\s{2,}|^>\s{3,}|^test \S+ \.\.\. |^\s*<\/?(?:testsuites?|testcase|failure|error|skipped|system-out|system-err|test-method|test-class|test)\b/;

/**
 * System traces and kernel/service logs: strace's `name(args) = result` lines (with `[pid N]` or a pid
 * column under -f), its `+++ exited with N +++` and `--- SIGCHLD ... ---` lines.
 */
const TRACE =
  /^(?:\[pid\s+\d+\] |\d+\s+)?[a-z_][a-z0-9_]*\(.*\)\s+= (?:-?\d+|\?|0x[0-9a-f]+)|^(?:\[pid\s+\d+\] |\d+\s+)?(?:\+\+\+ (?:exited|killed)|--- SIG[A-Z]+ )/;

const SIGNALS = [TIME, SEVERITY, BUILD, DIAGNOSTIC, TEST, TRACE];

const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

/** Lines looked at: the first ones and an even sample of the rest (preambles can be long). */
const HEAD_LINES = 100;
const SAMPLED_LINES = 100;

/** The sampled lines from the line table, each cut to its first 400 characters, the blank ones left out. */
function sampledLines(analysis: TextAnalysis): string[] {
  const { count, start, end } = analysis.lines;
  const pick = new Set<number>();
  for (let i = 0; i < Math.min(HEAD_LINES, count); i++) pick.add(i);
  const rest = count - HEAD_LINES;
  if (rest > 0) for (let k = 0; k < SAMPLED_LINES; k++) pick.add(HEAD_LINES + Math.floor((k * rest) / SAMPLED_LINES));
  const lines: string[] = [];
  for (const i of pick) {
    const line = analysis.text.slice(start[i]!, Math.min(end[i]!, start[i]! + 400));
    if (line.trim() !== '') lines.push(line);
  }
  return lines;
}

function marked(raw: string): boolean {
  if (raw.includes('\u001b') && EXCERPT_NUMBER.test(raw)) return true;
  const line = raw.includes('\u001b') ? raw.replace(ANSI, '') : raw;
  return !DATED_BLAME_LINE.test(line) && SIGNALS.some((signal) => signal.test(line));
}

/** Confidence in [0, 0.9] that the text is a log: the share of sampled non-blank lines carrying a log mark. */
export function logConfidence(analysis: TextAnalysis): number {
  const lines = sampledLines(analysis);
  if (lines.length === 0) return 0;
  return Math.min(0.9, 0.1 + lines.filter(marked).length / lines.length);
}
