// Is this text a log? Unclaimed text goes to the gentle text processor, so the
// log processor (which samples lines) must claim real logs by what marks them:
// timestamps, severity fields, build steps, compiler diagnostics with their
// source excerpts, test-runner lines, stack frames. Prose, source code and
// listings carry few of these.

/** Timestamps: HH:MM:SS, dates, dmesg's `[    0.000000]`, epoch seconds. */
const TIME = /\b\d{1,2}:\d{2}:\d{2}\b|\b\d{4}[-/.]\d{1,2}[-/.]\d{1,2}\b|^\[\s*\d+\.\d+\]|\b1[0-6]\d{8}\b/;

/** A severity field: at the start, bracketed, after a timestamp/pid column, or keyed. */
const SEVERITY =
  /(?:^|[\s[|(<])(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|SEVERE|FATAL|CRITICAL)(?:[\]\s:|>)]|$)|\[(?:notice|error|warn|warning|info|debug|crit|alert|emerg)\]|\b(?:level|lvl|severity)=\w|^(?:npm|yarn|pnpm) (?:ERR|WARN|warn|notice|http|timing|verb|info|sill)\b|^[VDIWEF]\/\w/;

/**
 * Build and packaging steps: bracketed step tags, make/ninja/cmake progress, compiler invocations,
 * cargo/npm verbs, and the bare source names MSVC's cl and IAR echo per compiled file.
 */
const BUILD =
  /^\s*\[[^\]\n]{1,40}\](?:[\s:]|$)|^make(?:\[\d+\])?: |^\s*\[\s*\d+%\]|^\s*(?:gcc|g\+\+|cc|c\+\+|clang|clang\+\+|ld|ar|javac|cl|link|cmake|nvcc|rustc|CC|CXX|CCLD|LD|AR)(?:\.exe)?\s|^\s*(?:Compiling|Checking|Finished|Running|Building|Linking|Downloading|Downloaded|Installing|Collecting|Fresh|Updating|Resolving|Generating|Scanning|Processing|Executing|Testing|Packaging|Done|Build|BUILD|Started|Deleting|Copying|Creating|Touching|Restoring|Target)\b|\.exe\s+\/|^> Task :|^\s*Project "|^\d+>|^added \d+ packages?|^-- |^[\w.+-]+\.(?:c|cc|cpp|cxx|m|mm|s|asm)$/;

/** Compiler and linter diagnostics and their source excerpts (gcc/clang, rustc, tsc, msbuild, javac). */
const DIAGNOSTIC =
  /(?:^|[\s:)])(?:fatal error|error|warning|note|remark|help)(?:\s*\[?[\w-]*\d+\]?)?\s*:|\(\d+(?:,\d+)?\)\s*:\s|:\d+(?::\d+)?:\s|^\s*-->\s|^\s*\d*\s+\|(?:\s|$)|^\s*[~^]+[~^\s]*$|^\s*= (?:note|help):|- error TS\d+/i;

/**
 * Test runners (jest/vitest/mocha/TAP/go/pytest/cargo, JUnit/TestNG XML reports) and stack traces.
 * TAP (node --test) also: its plan `1..N`, `# Subtest:` and `# tests N` comments, and the YAML
 * block under each test (`---`, `duration_ms: 1.2`, `...`), which is most of its lines.
 */
const TEST =
  /^\s*(?:---|\.\.\.)$|^\s*duration_ms:\s|^# (?:Subtest|tests|suites|pass|fail|cancelled|skipped|todo|duration_ms)\b|^\d+\.\.\d+$|^\s*(?:✓|✔|✗|✘|×|√|❯|›|●|⎯)|^\s*(?:ok|not ok)\s+\d|^(?:ok|FAIL|PASS|---)\s|\b(?:PASSED|FAILED|SKIPPED|XFAIL|XPASS)\b|^(?:={3,}|-{3,}|_{3,}|\*{3,})|^\s*(?:Tests?|Test Suites|Test Files|Snapshots|Duration|Time):\s|^\s*at\s+\S|^\s*File "|^Traceback|^Caused by:|^E\s{2,}|^>\s{3,}|^test \S+ \.\.\. |^\s*<\/?(?:testsuites?|testcase|failure|error|skipped|system-out|system-err|test-method|test-class|test)\b/;

const SIGNALS = [TIME, SEVERITY, BUILD, DIAGNOSTIC, TEST];

const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

/** Lines looked at: the first ones and an even sample of the rest (preambles can be long). */
const HEAD_LINES = 100;
const SAMPLED_LINES = 100;

function sampledLines(text: string): string[] {
  const starts: number[] = [0];
  for (let i = text.indexOf('\n'); i !== -1 && i + 1 < text.length; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const pick = new Set<number>();
  for (let i = 0; i < Math.min(HEAD_LINES, starts.length); i++) pick.add(i);
  const rest = starts.length - HEAD_LINES;
  if (rest > 0) for (let k = 0; k < SAMPLED_LINES; k++) pick.add(HEAD_LINES + Math.floor((k * rest) / SAMPLED_LINES));
  const lines: string[] = [];
  for (const i of pick) {
    const end = text.indexOf('\n', starts[i]!);
    const line = text.slice(starts[i]!, Math.min(end === -1 ? text.length : end, starts[i]! + 400));
    if (line.trim() !== '') lines.push(line.includes('\u001b') ? line.replace(ANSI, '') : line);
  }
  return lines;
}

/** Confidence in [0, 0.9] that `text` is a log: the share of sampled non-blank lines carrying a log mark. */
export function logConfidence(text: string): number {
  const lines = sampledLines(text);
  if (lines.length === 0) return 0;
  const marked = lines.filter((line) => SIGNALS.some((signal) => signal.test(line))).length;
  return Math.min(0.9, 0.1 + marked / lines.length);
}
