// The one table of verdict rules: which line of which test runner or compiler
// states a test total, a failing test, a diagnostic, a diagnostic count or an
// exit status, and how to read its numbers. A rule sees one line with ANSI
// escapes, a CI timestamp and leading blanks removed; every pattern is anchored
// at that line's start and built so it cannot backtrack more than linearly
// (no nested or adjacent unbounded quantifiers over the same characters).
// Rules run only on the lines the classify kernel cues (LineFlag.VerdictCue):
// a new rule needs a word of its own pattern in the kernel's `verdictWord`
// (assembly/classify.ts and its twin) unless one already stands for it.

/** What a line states. */
export type RuleKind =
  /** Test totals (`Tests: 1 failed, 3 passed`); `suites` totals are kept but not counted as tests. */
  | 'tests'
  | 'suites'
  /** One failing test, by name. */
  | 'failing-test'
  /** One compiler diagnostic (counted; the first error is a fact). */
  | 'error'
  | 'warning'
  /** A compiler's own count of its diagnostics (`Found 2 errors`): it wins over lines counted. */
  | 'diagnostic-count'
  /** How the run ended: `make: *** … Error 1`, `npm ERR! code`, `[exit code: 1]`. */
  | 'exit-status';

/** What a matched line says, in numbers and names. */
export interface Reading {
  passed?: number;
  failed?: number;
  skipped?: number;
  total?: number;
  errors?: number;
  warnings?: number;
  /** A failing test's name. */
  name?: string;
  /** Where a diagnostic is, `file:line[:col]`. */
  location?: string;
  /** An exit status in words: `Error 2`, `code ERESOLVE`, `exit code 1`. */
  status?: string;
  /** The tool, where the line itself tells (a file extension, an error code). */
  tool?: string;
}

export interface Rule {
  readonly tool: string;
  readonly kind: RuleKind;
  /** Characters the line (as the rule sees it) can start with: rules are looked up by first character. */
  readonly first: string;
  /**
   * A substring the line must hold before the pattern runs: a rule that may start with any character
   * needs one, and a rule whose first characters are common (digits) has one so most lines skip its pattern.
   */
  readonly contains?: string;
  readonly pattern: RegExp;
  readonly read?: (match: RegExpExecArray) => Reading;
  /**
   * A rustc-style header (`error: …`) counts only when a ` --> file:line:col`
   * line follows within two lines: bare `error:` lines are too common elsewhere.
   */
  readonly needsArrow?: boolean;
  /**
   * The line alone is too plain to name its tool (`OK`, `FAIL`, `2 errors`):
   * it counts only when a line of another rule of the same tool was found.
   */
  readonly weak?: boolean;
}

const n = (text: string | undefined): number | undefined => (text === undefined ? undefined : Number(text));

/** `3 failed, 12 passed, 1 skipped`: counts by word, for runners that list them in any order. */
function counts(text: string): Reading {
  const out: Reading = {};
  for (const [, digits, word] of text.matchAll(/(\d+) ([a-z]+)/gi)) {
    const value = Number(digits);
    switch (word!.toLowerCase()) {
      case 'failed':
      case 'failing':
      case 'failures':
      case 'failure':
      case 'fail':
      case 'error':
      case 'errors':
      case 'broken':
      case 'cancelled':
        out.failed = (out.failed ?? 0) + value;
        break;
      case 'passed':
      case 'passing':
      case 'pass':
      case 'ok':
      case 'xfailed':
      case 'xpassed':
        out.passed = (out.passed ?? 0) + value;
        break;
      case 'skipped':
      case 'skip':
      case 'pending':
      case 'todo':
      case 'ignored':
        out.skipped = (out.skipped ?? 0) + value;
        break;
      case 'total':
      case 'tests':
        out.total = value;
        break;
    }
  }
  return out;
}

/** `failures=2, errors=1, skipped=3` (unittest) and `Failures: 2, Errors: 1` (JUnit, PHPUnit). */
function keyed(text: string): Reading {
  const out: Reading = {};
  for (const [, key, digits] of text.matchAll(/([A-Za-z]+)(?:=|: +)(\d+)/g)) {
    const value = Number(digits);
    switch (key!.toLowerCase()) {
      case 'failures':
      case 'errors':
        out.failed = (out.failed ?? 0) + value;
        break;
      case 'skipped':
      case 'incomplete':
        out.skipped = (out.skipped ?? 0) + value;
        break;
      case 'tests':
      case 'run':
        out.total = value;
        break;
    }
  }
  return out;
}

/** The C-family tool by the file's extension: gcc/clang for C and C++, javac, mypy, … */
function toolForPath(path: string): string | undefined {
  const ext = /\.([A-Za-z+]{1,5})$/.exec(path)?.[1]?.toLowerCase();
  switch (ext) {
    case 'java':
      return 'javac';
    case 'py':
      return 'mypy';
    case 'kt':
    case 'kts':
      return 'kotlinc';
    case 'go':
      return 'go';
    case 'swift':
      return 'swiftc';
    case 'ts':
    case 'tsx':
    case 'mts':
    case 'cts':
      return 'tsc';
    default:
      return undefined;
  }
}

const DIGITS = '0123456789';

export const RULES: readonly Rule[] = [
  // ── test runners: totals ──────────────────────────────────────────────
  { tool: 'jest', kind: 'tests', first: 'T', pattern: /^Tests:[ \t]+([^\n]*?\d+ total)/, read: (m) => counts(m[1]!) },
  // jest's failing file: `FAIL src/cart/cart.test.ts (5.2 s)`
  { tool: 'jest', kind: 'suites', first: 'F', pattern: /^FAIL +\S+\.[cm]?[jt]sx?(?: \([^)\n]*\))?$/ },
  { tool: 'jest', kind: 'suites', first: 'T', pattern: /^Test Suites:[ \t]+[^\n]*?\d+ total/ },
  // vitest: ` Test Files  1 failed | 3 passed (4)`, `      Tests  2 failed | 10 passed (12)`
  {
    tool: 'vitest',
    kind: 'tests',
    first: 'T',
    pattern: /^Tests {2,}(\d+ [a-z]+(?: \| \d+ [a-z]+)*) \((\d+)\)/,
    read: (m) => ({ ...counts(m[1]!), total: Number(m[2]) }),
  },
  { tool: 'vitest', kind: 'suites', first: 'T', pattern: /^Test Files {2,}\d+ [a-z]+(?: \| \d+ [a-z]+)* \(\d+\)/ },
  // pytest: `==== 1 failed, 411 passed, 2 warnings in 12.31s ====` (and -q without the rules)
  {
    tool: 'pytest',
    kind: 'tests',
    first: `=${DIGITS}`,
    contains: ' in ',
    pattern: /^(?:=+ )?(\d+ [a-z]+(?:, \d+ [a-z]+)*) in \d+(?:\.\d+)?s\b/,
    read: (m) => {
      const { warnings: _, ...rest } = counts(m[1]!.replace(/\d+ warnings?/, ''));
      const total = (rest.passed ?? 0) + (rest.failed ?? 0) + (rest.skipped ?? 0);
      return { ...rest, total };
    },
  },
  // unittest: `Ran 12 tests in 0.01s`, then `FAILED (failures=2, errors=1)` or `OK (skipped=1)`
  {
    tool: 'unittest',
    kind: 'tests',
    first: 'R',
    pattern: /^Ran (\d+) tests? in /,
    read: (m) => ({ total: Number(m[1]) }),
  },
  {
    tool: 'unittest',
    kind: 'tests',
    first: 'F',
    weak: true,
    pattern: /^FAILED \(([a-z ]+=\d+(?:, [a-z ]+=\d+)*)\)$/,
    read: (m) => keyed(m[1]!),
  },
  {
    tool: 'unittest',
    kind: 'tests',
    first: 'O',
    weak: true,
    pattern: /^OK(?: \(([a-z ]+=\d+(?:, [a-z ]+=\d+)*)\))?$/,
    read: (m) => ({ failed: 0, ...(m[1] ? keyed(m[1]) : {}) }),
  },
  // cargo test: `test result: FAILED. 3 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s`
  {
    tool: 'cargo test',
    kind: 'tests',
    first: 't',
    pattern: /^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored;/,
    read: (m) => ({
      passed: Number(m[1]),
      failed: Number(m[2]),
      skipped: Number(m[3]),
      total: Number(m[1]) + Number(m[2]) + Number(m[3]),
    }),
  },
  // TAP and node --test: `# tests 301`, `# pass 300`, `# fail 1`; `ℹ fail 1` in node's spec reporter
  {
    // (a zero skip, todo or cancelled count says nothing worth a line)
    tool: 'tap',
    kind: 'tests',
    first: '#ℹ',
    pattern: /^[#ℹ] (?:(tests|pass|fail) +(\d+)|(skip|skipped|todo|cancelled) +([1-9]\d*))$/,
    read: (m) => counts(`${m[2] ?? m[4]} ${m[1] ?? m[3]}`),
  },
  // mocha: `  12 passing (1s)`, `  2 failing`, `  1 pending`
  {
    tool: 'mocha',
    kind: 'tests',
    first: DIGITS,
    contains: 'ing',
    pattern: /^(\d+) (passing|failing|pending)(?: \([^)]*\))?$/,
    read: (m) => counts(`${m[1]} ${m[2]}`),
  },
  // rspec: `42 examples, 2 failures, 1 pending`
  {
    tool: 'rspec',
    kind: 'tests',
    first: DIGITS,
    contains: ' example',
    pattern: /^(\d+) examples?, (\d+) failures?(?:, (\d+) pending)?/,
    read: (m) => ({ total: Number(m[1]), failed: Number(m[2]), ...(m[3] ? { skipped: Number(m[3]) } : {}) }),
  },
  // Maven surefire's totals (its per-class lines carry `, Time elapsed` and do not match), JUnit 4's text runner.
  {
    tool: 'junit',
    kind: 'tests',
    first: '[T',
    pattern: /^(?:\[[A-Z]+\] )?Tests run: (\d+), +Failures: (\d+)(?:, +Errors: (\d+))?(?:, +Skipped: (\d+))?$/,
    read: (m) => ({
      total: Number(m[1]),
      failed: Number(m[2]) + (n(m[3]) ?? 0),
      ...(m[4] ? { skipped: Number(m[4]) } : {}),
    }),
  },
  {
    tool: 'junit',
    kind: 'tests',
    first: 'O',
    pattern: /^OK \((\d+) tests?\)$/,
    read: (m) => ({ total: Number(m[1]), failed: 0 }),
  },
  // PHPUnit: `Tests: 10, Assertions: 20, Failures: 2, Skipped: 1.`
  {
    tool: 'phpunit',
    kind: 'tests',
    first: 'T',
    pattern: /^Tests: (\d+), Assertions: \d+((?:, [A-Z][a-z]+: \d+)*)\.$/,
    read: (m) => ({ failed: 0, ...keyed(m[2]!), total: Number(m[1]) }),
  },
  // Gradle: `42 tests completed, 2 failed, 1 skipped`
  {
    tool: 'gradle',
    kind: 'tests',
    first: DIGITS,
    contains: ' completed, ',
    pattern: /^(\d+) tests? completed, (\d+) failed(?:, (\d+) skipped)?/,
    read: (m) => ({ total: Number(m[1]), failed: Number(m[2]), ...(m[3] ? { skipped: Number(m[3]) } : {}) }),
  },
  // dotnet test: `Failed!  - Failed:     1, Passed:    10, Skipped:     0, Total:    11, Duration: 1 s`
  {
    tool: 'dotnet test',
    kind: 'tests',
    first: 'FP',
    pattern: /^(?:Failed|Passed)! +- Failed: +(\d+), Passed: +(\d+), Skipped: +(\d+), Total: +(\d+)/,
    read: (m) => ({ failed: Number(m[1]), passed: Number(m[2]), skipped: Number(m[3]), total: Number(m[4]) }),
  },
  // ctest: `90% tests passed, 1 tests failed out of 10`
  {
    tool: 'ctest',
    kind: 'tests',
    first: DIGITS,
    contains: '% tests passed, ',
    pattern: /^\d+% tests passed, (\d+) tests? failed out of (\d+)$/,
    read: (m) => ({ failed: Number(m[1]), total: Number(m[2]) }),
  },

  // ── test runners: failing tests by name ───────────────────────────────
  {
    tool: 'pytest',
    kind: 'failing-test',
    first: 'FE',
    pattern: /^(?:FAILED|ERROR) ([^\s:]+\.py::[^\s]+)/,
    read: (m) => ({ name: m[1]! }),
  },
  {
    tool: 'pytest',
    kind: 'failing-test',
    first: '',
    contains: '.py::',
    pattern: /^([^\s:]+\.py::[^\s]+) (?:FAILED|ERROR)\b/,
    read: (m) => ({ name: m[1]! }),
  },
  { tool: 'jest', kind: 'failing-test', first: '●', pattern: /^● ([^\n›]+ › [^\n]+)$/, read: (m) => ({ name: m[1]! }) },
  {
    tool: 'vitest',
    kind: 'failing-test',
    first: 'F',
    pattern: /^FAIL +([^\s>]+ > [^\n]+)$/,
    read: (m) => ({ name: m[1]! }),
  },
  { tool: 'go test', kind: 'failing-test', first: '-', pattern: /^--- FAIL: (\S+)/, read: (m) => ({ name: m[1]! }) },
  {
    tool: 'cargo test',
    kind: 'failing-test',
    first: 't',
    pattern: /^test (\S+) \.\.\. FAILED$/,
    read: (m) => ({ name: m[1]! }),
  },
  {
    tool: 'tap',
    kind: 'failing-test',
    first: 'n',
    pattern: /^not ok \d+(?: -)? ?([^#\n]*)/,
    read: (m) => ({ name: m[1]!.trim() }),
  },
  {
    tool: 'rspec',
    kind: 'failing-test',
    first: 'r',
    pattern: /^rspec (\.\/\S+:\d+) # (.+)$/,
    read: (m) => ({ name: m[2]! }),
  },
  {
    tool: 'unittest',
    kind: 'failing-test',
    first: 'FE',
    pattern: /^(?:FAIL|ERROR): (\w+) \(([\w.]+)\)/,
    read: (m) => ({ name: `${m[2]}.${m[1]}` }),
  },
  {
    tool: 'junit',
    kind: 'failing-test',
    first: '[',
    pattern: /^\[ERROR\] (\S+) +Time elapsed: [^<]*<<< (?:FAILURE|ERROR)!$/,
    read: (m) => ({ name: m[1]! }),
  },
  {
    tool: 'gradle',
    kind: 'failing-test',
    first: '',
    contains: ' FAILED',
    pattern: /^([\w.$]+) > ([^\n]+) FAILED$/,
    read: (m) => ({ name: `${m[1]} > ${m[2]}` }),
  },
  {
    tool: 'dotnet test',
    kind: 'failing-test',
    first: 'F',
    pattern: /^Failed (\S+) \[[^\]]*\]$/,
    read: (m) => ({ name: m[1]! }),
  },

  // ── compilers: counts they print themselves (before the per-line rules: first match wins) ──
  // tsc `Found 2 errors in 2 files.`, mypy `Found 3 errors in 2 files (checked 10 source files)`
  {
    tool: 'tsc',
    kind: 'diagnostic-count',
    first: 'F',
    pattern: /^Found (\d+) errors?\b([^\n]*)/,
    read: (m) => ({ errors: Number(m[1]), ...(m[2]!.includes('(checked') ? { tool: 'mypy' } : {}) }),
  },
  // clang `2 errors generated.`, `1 warning and 2 errors generated.`
  {
    tool: 'gcc/clang',
    kind: 'diagnostic-count',
    first: DIGITS,
    contains: ' generated.',
    pattern: /^(\d+) (error|warning)s?(?: and (\d+) (error|warning)s?)? generated\.$/,
    read: (m) => {
      const out: Reading = { errors: 0, warnings: 0 };
      out[m[2] === 'error' ? 'errors' : 'warnings'] = Number(m[1]);
      if (m[3]) out[m[4] === 'error' ? 'errors' : 'warnings'] = Number(m[3]);
      return out;
    },
  },
  // rustc / cargo
  {
    tool: 'rustc',
    kind: 'exit-status',
    first: 'e',
    pattern:
      /^error: could not compile `[^`]+`[^\n]*?(?:due to (\d+) previous errors?(?:; (\d+) warnings? emitted)?)?$/,
    read: (m) => ({
      status: 'could not compile',
      ...(m[1] ? { errors: Number(m[1]) } : {}),
      ...(m[2] ? { warnings: Number(m[2]) } : {}),
    }),
  },
  {
    tool: 'rustc',
    kind: 'diagnostic-count',
    first: 'e',
    pattern: /^error: aborting due to (\d+) previous errors?(?:; (\d+) warnings? emitted)?/,
    read: (m) => ({ errors: Number(m[1]), ...(m[2] ? { warnings: Number(m[2]) } : {}) }),
  },
  {
    tool: 'rustc',
    kind: 'diagnostic-count',
    first: 'w',
    pattern: /^warning: `[^`]+` \([^)]*\) generated (\d+) warnings?/,
    read: (m) => ({ warnings: Number(m[1]) }),
  },
  {
    tool: 'cargo test',
    kind: 'exit-status',
    first: 'e',
    pattern: /^error: (?:test failed, to rerun pass|\d+ targets? failed)/,
    read: () => ({ status: 'test failed' }),
  },
  // javac `2 errors` (Maven prints it as `[INFO] 2 errors `), MSBuild `    2 Error(s)`
  {
    tool: 'javac',
    kind: 'diagnostic-count',
    first: `[${DIGITS}`,
    contains: ' ',
    weak: true,
    pattern: /^(?:\[[A-Z]+\] )?(\d+) (error|warning)s?[ \t]*$/,
    read: (m) => ({ [m[2] === 'error' ? 'errors' : 'warnings']: Number(m[1]) }),
  },
  {
    tool: 'msbuild',
    kind: 'diagnostic-count',
    first: DIGITS,
    contains: '(s)',
    pattern: /^(\d+) (Error|Warning)\(s\)$/,
    read: (m) => ({ [m[2] === 'Error' ? 'errors' : 'warnings']: Number(m[1]) }),
  },
  // eslint: `✖ 3 problems (2 errors, 1 warning)`
  {
    tool: 'eslint',
    kind: 'diagnostic-count',
    first: '✖',
    pattern: /^✖ \d+ problems? \((\d+) errors?, (\d+) warnings?\)/,
    read: (m) => ({ errors: Number(m[1]), warnings: Number(m[2]) }),
  },

  // ── compilers: one diagnostic per line ─────────────────────────────────
  // tsc and MSBuild (csc, …): `src/a.ts(12,3): error TS2304: …`, `X.cs(12,5): error CS0103: …`
  {
    tool: 'msbuild',
    kind: 'error',
    first: '',
    contains: '): ',
    pattern: /^([^\s([][^(\n]*)\((\d+)(?:,(\d+))?\): (error|warning) ([A-Z]+)\d+: /,
    read: (m) => ({
      location: `${m[1]}:${m[2]}${m[3] ? `:${m[3]}` : ''}`,
      ...(m[5] === 'TS' ? { tool: 'tsc' } : {}),
      ...(m[4] === 'warning' ? { warnings: 1 } : { errors: 1 }),
    }),
  },
  // IAR: `D:\src\a.c(313) : Error[Pe020]: identifier "x" is undefined`
  {
    tool: 'iar',
    kind: 'error',
    first: '',
    contains: ') : ',
    pattern: /^([^\s([][^(\n]*)\((\d+)\) : (Error|Warning)\[\w+\]: /,
    read: (m) => ({ location: `${m[1]}:${m[2]}`, ...(m[3] === 'Warning' ? { warnings: 1 } : { errors: 1 }) }),
  },
  // tsc --pretty: `src/a.ts:12:3 - error TS2304: …`
  {
    tool: 'tsc',
    kind: 'error',
    first: '',
    contains: ' TS',
    pattern: /^([^\s:[][^:\n]*):(\d+):(\d+) - (error|warning) TS\d+: /,
    read: (m) => ({ location: `${m[1]}:${m[2]}:${m[3]}`, ...(m[4] === 'warning' ? { warnings: 1 } : { errors: 1 }) }),
  },
  // Maven's javac: `[ERROR] /src/Cart.java:[57,21] cannot find symbol`
  {
    tool: 'javac',
    kind: 'error',
    first: '[',
    pattern: /^\[(ERROR|WARNING)\] ((?:[A-Za-z]:)?[^:\s[][^:[\n]*\.(?:java|kt|scala|groovy)):\[(\d+)(?:,(\d+))?\] /,
    read: (m) => ({
      location: `${m[2]}:${m[3]}${m[4] ? `:${m[4]}` : ''}`,
      ...(m[1] === 'WARNING' ? { warnings: 1 } : { errors: 1 }),
    }),
  },
  // gcc, clang, javac, mypy, swiftc: `file.c:12:5: error: …` (also `C:\x\file.c:12:5:`)
  {
    tool: 'gcc/clang',
    kind: 'error',
    first: '',
    contains: ': ',
    pattern: /^((?:[A-Za-z]:)?[^\s:[][^:\n]*):(\d+)(?::(\d+))?: (fatal error|error|warning): /,
    read: (m) => ({
      location: `${m[1]}:${m[2]}${m[3] ? `:${m[3]}` : ''}`,
      ...(toolForPath(m[1]!) ? { tool: toolForPath(m[1]!)! } : {}),
      ...(m[4] === 'warning' ? { warnings: 1 } : { errors: 1 }),
    }),
  },
  // Kotlin: `e: file:///src/A.kt:12:5 Unresolved reference: x`
  {
    tool: 'kotlinc',
    kind: 'error',
    first: 'ew',
    pattern: /^([ew]): (?:file:\/\/)?([^\s:][^:\n]*\.kts?):(\d+):(\d+) /,
    read: (m) => ({ location: `${m[2]}:${m[3]}:${m[4]}`, ...(m[1] === 'w' ? { warnings: 1 } : { errors: 1 }) }),
  },
  // go build / vet: `./main.go:12:5: undefined: x`
  {
    tool: 'go',
    kind: 'error',
    first: '',
    contains: '.go:',
    pattern: /^((?:\.\/)?[^\s:][^:\n]*\.go):(\d+):(\d+): /,
    read: (m) => ({ location: `${m[1]}:${m[2]}:${m[3]}`, errors: 1 }),
  },
  // rustc: `error[E0382]: borrow of moved value`, `warning: unused variable` (with ` --> src/main.rs:4:9` after it)
  {
    tool: 'rustc',
    kind: 'error',
    first: 'ew',
    pattern: /^(error|warning)(?:\[[A-Z]+\d+\])?: /,
    needsArrow: true,
    read: (m) => (m[1] === 'warning' ? { warnings: 1 } : { errors: 1 }),
  },

  // ── how the run ended ──────────────────────────────────────────────────
  {
    tool: 'make',
    kind: 'exit-status',
    first: 'gmn',
    pattern: /^(?:g?make|mingw32-make|ninja)(?:\[\d+\])?: \*\*\* [^\n]*?(Error \d+)?$/,
    read: (m) => ({ status: m[1] ?? 'stopped' }),
  },
  {
    tool: 'ninja',
    kind: 'exit-status',
    first: 'n',
    pattern: /^ninja: build stopped: subcommand failed\.?$/,
    read: () => ({ status: 'subcommand failed' }),
  },
  {
    tool: 'npm',
    kind: 'exit-status',
    first: 'n',
    pattern: /^npm (?:ERR!|error) code (\S+)/,
    read: (m) => ({ status: `code ${m[1]}` }),
  },
  {
    tool: 'yarn',
    kind: 'exit-status',
    first: 'e',
    pattern: /^error Command failed with exit code (\d+)\.?$/,
    read: (m) => ({ status: `exit code ${m[1]}` }),
  },
  {
    tool: 'pnpm',
    kind: 'exit-status',
    first: 'E',
    pattern: /^(ELIFECYCLE|ERR_PNPM_[A-Z_]+)\b/,
    read: (m) => ({ status: m[1]! }),
  },
  {
    tool: 'exit',
    kind: 'exit-status',
    first: '#EP',
    pattern: /^(?:##\[error\]|Error: )?Process (?:completed|finished) with exit code (\d+)\.?$/,
    read: (m) => ({ status: `exit code ${m[1]}` }),
  },
  {
    tool: 'exit',
    kind: 'exit-status',
    first: '[',
    pattern: /^\[exit code: (\d+)\]$/,
    read: (m) => ({ status: `exit code ${m[1]}` }),
  },
  {
    tool: 'exit',
    kind: 'exit-status',
    first: 'E',
    pattern: /^Exited with code (?:exit status )?(\d+)$/,
    read: (m) => ({ status: `exit code ${m[1]}` }),
  },
  // go test: `FAIL\texample.com/app/ledger\t0.412s`, `FAIL\tpkg [build failed]`, a bare `FAIL`
  {
    tool: 'go test',
    kind: 'exit-status',
    first: 'F',
    pattern: /^FAIL[ \t]+(\S+)[ \t]+(?:\d+(?:\.\d+)?s|\[[^\]\n]*\])$/,
    read: (m) => ({ status: `FAIL ${m[1]}` }),
  },
  { tool: 'go test', kind: 'exit-status', first: 'F', weak: true, pattern: /^FAIL$/, read: () => ({ status: 'FAIL' }) },
  {
    tool: 'go',
    kind: 'exit-status',
    first: 'e',
    pattern: /^exit status (\d+)$/,
    read: (m) => ({ status: `exit status ${m[1]}` }),
  },
  {
    tool: 'ld',
    kind: 'exit-status',
    first: 'c',
    pattern: /^collect2: (?:fatal )?error: ld returned (\d+) exit status$/,
    read: () => ({ status: 'link failed' }),
  },
  {
    tool: 'maven',
    kind: 'exit-status',
    first: '[',
    pattern: /^\[(?:INFO|ERROR)\] BUILD (FAILURE|SUCCESS)$/,
    read: (m) => ({ status: `BUILD ${m[1]}` }),
  },
  {
    tool: 'maven',
    kind: 'exit-status',
    first: '[',
    pattern: /^\[ERROR\] Failed to execute goal /,
    read: () => ({ status: 'failed to execute goal' }),
  },
  {
    tool: 'gradle',
    kind: 'exit-status',
    first: 'B',
    pattern: /^BUILD (FAILED|SUCCESSFUL) in /,
    read: (m) => ({ status: `BUILD ${m[1]}` }),
  },
  {
    tool: 'gradle',
    kind: 'exit-status',
    first: 'F',
    pattern: /^FAILURE: Build failed with an exception\.$/,
    read: () => ({ status: 'BUILD FAILED' }),
  },
  {
    tool: 'msbuild',
    kind: 'exit-status',
    first: 'B',
    pattern: /^Build (FAILED|succeeded)\.$/,
    read: (m) => ({ status: `Build ${m[1]}` }),
  },
];
