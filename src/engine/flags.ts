// The per-line flags word written by the `classify_lines` kernel (and its
// twin). Bits 0-2 hold the severity, the bits above are independent classes.
// assembly/classify.ts repeats these numbers (AssemblyScript cannot import
// host code); the differential test keeps the two in step.

/** Severity from an explicit level field, in bits 0-2 of a line's flags. */
export const Severity = {
  None: 0,
  Trace: 1,
  Debug: 2,
  Info: 3,
  Warn: 4,
  Error: 5,
  Fatal: 6,
} as const;
export type Severity = (typeof Severity)[keyof typeof Severity];

/** Names of the severities, indexed by value (for omission markers). */
export const SEVERITY_NAMES = ['other', 'TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL'] as const;

/** Number of severity values (the length of a per-severity count vector). */
export const SEVERITY_COUNT = 7;

export const SEVERITY_MASK = 0x7;

export const LineFlag = {
  /** A failure keyword (error, exception, failed, panic, timed out, not found, …) as a word. */
  Failure: 1 << 3,
  /** A stack frame (Python, JS, Java, Rust, Go, C#, gdb/sanitizer `#0 0x…`, kernel `[<…>]`) or Java's `... 12 more`. */
  StackFrame: 1 << 4,
  /** Starts or names a trace: Traceback, Caused by:, Exception in thread, panicked at, goroutine N [..]:, Call Trace:, `x.YException:`. */
  StackHeader: 1 << 5,
  /** A source location: `a.c:12:5`, `Foo.java:[42,7]`, `X.cs(12,5)`, `X.cs:line 42`, `File "x.py"`. */
  Location: 1 << 6,
  /** A compiler diagnostic: `error:`, `warning:`, `error[E0382]:`, `error TS2345:`, `warning :`, `[ERROR]`. */
  Diagnostic: 1 << 7,
  /** A failing-test marker: FAIL/FAILED, not ok, ✗ ✕ × ✘, assert, AssertionError, jest Expected/Received. */
  TestFailure: 1 << 8,
  /** A test or build summary: `Tests: 2 failed`, `== 3 failed ==`, `BUILD FAILURE`, `0 error(s)`, go `ok`/`FAIL pkg`. */
  Summary: 1 << 9,
  /** Contains an ANSI escape sequence. */
  Ansi: 1 << 10,
  /** Empty or whitespace (and ANSI escapes) only. */
  Blank: 1 << 11,
  /**
   * An outcome that means failure in any tool: a syscall's `= -1 ENOENT` (not
   * EAGAIN/EINPROGRESS/EWOULDBLOCK), `killed`, `oom`/`OOMKilled`, `out of
   * memory`, `core dumped`, a non-zero exit (`exit code 2`, `exited with 1`,
   * `exit_group(1)`, `status=1`, `exit status 1`) or an exit by a signal.
   */
  Outcome: 1 << 12,
  /**
   * A word some preserved-item rule names (action, breaking, CVE, decision,
   * did, fix, GHSA, GO, help, hint, migration, prefer, PYSEC, RUSTSEC,
   * security, severity, suggestion, TODO, vulnerab…) at a word start, or a
   * `[ ]` box: the only lines, with the ANSI ones, src/pipeline/preserve.ts
   * runs its rules on.
   */
  PreserveCue: 1 << 13,
  /**
   * A word no verdict rule (src/pipeline/verdict/rules.ts) matches without,
   * where the rule puts it (`FAIL`, `Tests`, `error:`, `2 passing`, `a.py::`,
   * `make:`, `exit `, …), or jest's `●`: the only lines, with the ANSI ones,
   * the verdict reader tries its rules on.
   */
  VerdictCue: 1 << 14,
} as const;

/** The flags that mark a line as evidence worth keeping. */
export const EVIDENCE_FLAGS =
  LineFlag.Failure |
  LineFlag.StackFrame |
  LineFlag.StackHeader |
  LineFlag.Location |
  LineFlag.Diagnostic |
  LineFlag.TestFailure |
  LineFlag.Summary |
  LineFlag.Outcome;

export function severityOf(flags: number): Severity {
  return (flags & SEVERITY_MASK) as Severity;
}

/** A text's class summary from its lines' flags, as classify_lines returns it: every class bit ORed, the highest severity in bits 0-2. */
export function classSummary(flags: Int32Array): number {
  let summary = 0;
  let highest = 0;
  for (let i = 0; i < flags.length; i++) {
    summary |= flags[i]! & ~SEVERITY_MASK;
    highest = Math.max(highest, flags[i]! & SEVERITY_MASK);
  }
  return summary | highest;
}
