// Line classification on real output shapes (a few lines each, copied in the
// shape the tools print them: loghub systems, compilers, test runners).
import { describe, expect, it } from 'vitest';
import { LineFlag, Severity, TextAnalysis, severityOf } from '../../src/engine/index.js';
import { backendName, testBackend } from '../support/backend.js';

type FlagName = keyof typeof LineFlag;
const FLAG_NAMES = Object.keys(LineFlag) as FlagName[];

/** Severity and set flag names of every line of `text`. */
function classify(text: string): { severity: number; flags: FlagName[] }[] {
  const a = new TextAnalysis(text, testBackend());
  return Array.from(a.classes.flags, (word) => ({
    severity: severityOf(word),
    flags: FLAG_NAMES.filter((name) => (word & LineFlag[name]) !== 0),
  }));
}

function one(line: string): { severity: number; flags: FlagName[] } {
  return classify(line)[0]!;
}

describe(`severity from level fields (${backendName})`, () => {
  it.each([
    ['03-17 16:13:38.811  1702  2395 D WindowManager: printFreezingDisplayLogsopening app wtoken', Severity.Debug],
    ['03-17 16:15:20.135  1702  2360 E AndroidRuntime: FATAL EXCEPTION: main', Severity.Error],
    ['03-17 16:13:40.302  2227  2227 V PhoneStatusBar: setLightsOn(true)', Severity.Trace],
    ['03-17 16:13:49.043  1702 10476 W ActivityManager: Scheduling restart of crashed service', Severity.Warn],
    ['E/AndroidRuntime( 1234): java.lang.RuntimeException: boom', Severity.Error],
    ['I/ActivityManager(  520): Start proc com.example', Severity.Info],
    [
      '- 1117838570 2005.06.03 R02-M1-N0-C:J12-U11 2005-06-03-15.42.50.675872 R02-M1-N0-C:J12-U11 RAS KERNEL INFO instruction cache parity error corrected',
      Severity.Info,
    ],
    [
      '- 1117848119 2005.06.03 R16-M1-N2-C:J17-U01 2005-06-03-18.21.59.871925 R16-M1-N2-C:J17-U01 RAS KERNEL FATAL data TLB error interrupt',
      Severity.Fatal,
    ],
    [
      '- 1117869872 2005.06.04 R23-M0-NE-C:J05-U01 2005-06-04-00.24.32.432192 R23-M0-NE-C:J05-U01 RAS APP FATAL ciod: failed to read message prefix on control stream',
      Severity.Fatal,
    ],
    [
      '- 1118536327 2005.06.11 NULL 2005-06-11-17.32.07.581048 NULL RAS MMCS SEVERE idoproxydb hit ASSERT condition',
      Severity.Error,
    ],
    [
      '081109 203615 148 INFO dfs.DataNode$PacketResponder: PacketResponder 1 for block blk_38865049064139660 terminating',
      Severity.Info,
    ],
    [
      '081109 214043 2561 WARN dfs.DataNode$DataXceiver: 10.251.30.6:50010:Got exception while serving blk_-2918118818249673980 to /10.251.90.64:',
      Severity.Warn,
    ],
    ['2016-09-28 04:30:30, Info                  CBS    Loaded Servicing Stack v6.1.7601.23505', Severity.Info],
    ['2016-09-28 04:30:31, Error                 CSI    00000009 (F) STATUS_OBJECT_NAME_NOT_FOUND', Severity.Error],
    ['[Sun Dec 04 04:47:44 2005] [error] mod_jk child workerEnv in error state 6', Severity.Error],
    ['[Sun Dec 04 04:47:44 2005] [notice] workerEnv.init() ok /etc/httpd/conf/workers2.properties', Severity.Info],
    [
      '2015-10-18 18:01:47,978 INFO [main] org.apache.hadoop.mapreduce.v2.app.MRAppMaster: Created MRAppMaster',
      Severity.Info,
    ],
    [
      '2015-10-18 18:06:01,840 ERROR [RMCommunicator Allocator] org.apache.hadoop.mapreduce.v2.app.rm.RMContainerAllocator: ERROR IN CONTACTING RM.',
      Severity.Error,
    ],
    [
      '2015-07-29 19:04:29,071 - WARN  [SendWorker:188978561024:QuorumCnxManager$SendWorker@688] - Send worker leaving thread',
      Severity.Warn,
    ],
    ['time="2024-01-02T03:04:05Z" level=error msg="pull failed"', Severity.Error],
    ['{"time":"2024-01-02T03:04:05Z","level":"warn","msg":"slow"}', Severity.Warn],
    ['{"severity": "debug", "message": "x"}', Severity.Debug],
    ['<3>kernel: disk failure', Severity.Error],
    ['<14>Jan  1 00:00:00 host app: started', Severity.Info],
    ['WARNING: CPU: 0 PID: 983 at drivers/misc/kaboom.c:26 kaboom_init+0x79/0xd0 [kaboom]()', Severity.Warn],
    ['CRITICAL:root:disk full', Severity.Fatal],
    ['panic: runtime error: index out of range [3] with length 3', Severity.Fatal],
    ['fatal: not a git repository (or any of the parent directories): .git', Severity.Fatal],
    ['npm ERR! code ERESOLVE', Severity.Error],
    ['E0317 16:13:38.811000  1702 main.cc:42] Check failed: x', Severity.Error],
    ['[INF] Application started', Severity.Info],
    [
      '[\u001b[1;33mWARNING\u001b[m] /src/Report.java:[83,44] [ConstructorLeaksThis] Constructors should not pass',
      Severity.Warn,
    ],
    ['E       assert (3 * 2) < 6', Severity.Error],
    ['src/a.c:12:5: warning: unused variable ‘x’ [-Wunused-variable]', Severity.Warn],
    ['error[E0382]: borrow of moved value: `v`', Severity.Error],
  ])('%s', (line, severity) => {
    expect(one(line).severity).toBe(severity);
  });

  it.each([
    ['the error handler logged nothing'],
    ['errorCount=0 warnings_total=3'],
    ['Jun 14 15:16:01 combo sshd(pam_unix)[19939]: authentication failure; logname= uid=0'],
    ['ONERROR_HANDLER installed'],
    ['A fox jumped over 3 D fences'],
    ['process took 12 s to INFORM the user'],
  ])('no level in %j', (line) => {
    expect(one(line).severity).toBe(Severity.None);
  });
});

describe(`failure keywords (${backendName})`, () => {
  it.each([
    'Caused by: java.lang.NullPointerException',
    'connect() failed: Connection refused',
    'ssh: connect to host x port 22: Connection timed out',
    'Segmentation fault (core dumped)',
    '/usr/bin/ld: main.o: undefined reference to `foo`',
    'cp: cannot stat file',
    'Permission denied (publickey)',
    'Unable to copy file "a.dll" to "bin/a.dll"',
    'module not found',
    'TimeoutException after 30s',
    'thread main panicked',
    'Aborted',
    'HTTPError: 404',
  ])('%s', (line) => {
    expect(one(line).flags).toContain('Failure');
  });

  it.each([
    'failure_demo.py FFFFFFFFFF [100%]',
    'error_count_zero',
    'terrorism and failsafe notfound',
    'Compiling 3rdparty/cppunit/ERROR_CODES.cpp',
  ])('not inside identifiers: %s', (line) => {
    expect(one(line).flags).not.toContain('Failure');
  });
});

describe(`failure outcomes in any tool (${backendName})`, () => {
  it.each([
    '8416  openat(AT_FDCWD, "/etc/myapp/config.toml", O_RDONLY) = -1 ENOENT (No such file or directory)',
    '[pid  2801] connect(3, {sa_family=AF_INET, sin_port=htons(5432)}, 16) = -1 ECONNREFUSED (Connection refused)',
    'Dec 02 13:10:02 host kernel: Out of memory: Killed process 4242 (java) total-vm:8123456kB',
    'Dec 02 13:10:02 host systemd[1]: app.service: Main process exited, code=killed, status=9/KILL',
    'Dec 02 13:10:02 host systemd[1]: app.service: Main process exited, code=exited, status=1/FAILURE',
    '[ 1234.567890] app invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0',
    '                reason: OOMKilled',
    'Segmentation fault (core dumped)',
    '8407  exit_group(1)                     = ?',
    '8407  +++ exited with 1 +++',
    'Process finished with exit code 137',
    "subprocess.CalledProcessError: Command 'make' returned non-zero exit status 2.",
    '"exitCode": 137,',
    'worker exited with signal SIGSEGV',
    'sh: line 1:  4242 Killed                  ./run.sh',
  ])('%s', (line) => {
    expect(one(line).flags).toContain('Outcome');
  });

  it.each([
    '8416  read(3, 0x7ffc, 4096)           = -1 EAGAIN (Resource temporarily unavailable)',
    '8416  connect(5, {sa_family=AF_INET}, 16) = -1 EINPROGRESS (Operation now in progress)',
    '8416  openat(AT_FDCWD, "/etc/ld.so.cache", O_RDONLY|O_CLOEXEC) = 3',
    '8407  exit_group(0)                     = ?',
    '8407  +++ exited with 0 +++',
    'Process finished with exit code 0',
    'Dec 02 13:10:02 host systemd[1]: app.service: Deactivated successfully.',
    'press q to exit the pager',
    'existing 12 files kept',
    'a1b2c3d  Exited (0) 3 hours ago',
    'rt_sigaction(SIGINT, {sa_handler=SIG_DFL}, NULL, 8) = 0',
    'the room and the outdoor scope',
  ])('no outcome in %s', (line) => {
    expect(one(line).flags).not.toContain('Outcome');
  });
});

describe(`stack traces (${backendName})`, () => {
  it('Python', () => {
    const lines = classify(
      [
        'Traceback (most recent call last):',
        '  File "/app/main.py", line 3, in <module>',
        '    main()',
        "ValueError: invalid literal for int() with base 10: 'x'",
      ].join('\n'),
    );
    expect(lines[0]!.flags).toContain('StackHeader');
    expect(lines[1]!.flags).toEqual(expect.arrayContaining(['StackFrame', 'Location']));
    expect(lines[2]!.flags).toEqual([]);
    expect(lines[3]!.flags).toEqual(expect.arrayContaining(['StackHeader', 'Failure']));
  });

  it('Java, with Caused by and ... more', () => {
    const lines = classify(
      [
        'Exception in thread "main" java.lang.IllegalStateException: boom',
        '\tat com.example.Service.run(Service.java:42)',
        'Caused by: java.io.IOException: closed',
        '\t... 12 more',
        'java.lang.NullPointerException',
        '\tat hudson.plugins.violations.util.AbsoluteFileFinder.addSourcePaths(AbsoluteFileFinder.java:20)',
      ].join('\n'),
    );
    expect(lines[0]!.flags).toContain('StackHeader');
    expect(lines[1]!.flags).toEqual(expect.arrayContaining(['StackFrame', 'Location']));
    expect(lines[2]!.flags).toContain('StackHeader');
    expect(lines[3]!.flags).toContain('StackFrame');
    expect(lines[4]!.flags).toEqual(expect.arrayContaining(['StackHeader', 'Failure']));
    expect(lines[5]!.flags).toContain('StackFrame');
  });

  it('JavaScript', () => {
    const lines = classify(
      [
        "TypeError: Cannot read properties of undefined (reading 'x')",
        '    at Object.<anonymous> (/app/src/index.js:10:15)',
        '    at node:internal/main/run_main_module:28:49',
      ].join('\n'),
    );
    expect(lines[0]!.flags).toContain('StackHeader');
    expect(lines[1]!.flags).toEqual(expect.arrayContaining(['StackFrame', 'Location']));
    expect(lines[2]!.flags).toContain('StackFrame');
  });

  it('Rust', () => {
    const lines = classify(
      [
        "thread 'main' panicked at src/main.rs:4:5:",
        'stack backtrace:',
        '   3: std::panicking::begin_panic',
        '             at /rustc/abc/library/std/src/panicking.rs:616:12',
        '   4: 1. first item',
      ].join('\n'),
    );
    expect(lines[0]!.flags).toEqual(expect.arrayContaining(['StackHeader', 'Failure', 'Location']));
    expect(lines[2]!.flags).toContain('StackFrame');
    expect(lines[3]!.flags).toEqual(expect.arrayContaining(['StackFrame', 'Location']));
    expect(lines[4]!.flags).not.toContain('StackFrame');
  });

  it('Go', () => {
    const lines = classify(
      [
        'panic: runtime error: integer divide by zero',
        '',
        'goroutine 1 [running]:',
        'main.divide(...)',
        '\t/tmp/sandbox/prog.go:12 +0x1d',
      ].join('\n'),
    );
    expect(lines[0]!.severity).toBe(Severity.Fatal);
    expect(lines[1]!.flags).toEqual(['Blank']);
    expect(lines[2]!.flags).toContain('StackHeader');
    expect(lines[4]!.flags).toEqual(expect.arrayContaining(['StackFrame', 'Location']));
  });

  it('Linux kernel, gdb and sanitizers', () => {
    const lines = classify(
      [
        '[    3.639763] Call Trace:',
        '[    3.639769]  [<ffffffff81735b75>] dump_stack+0x45/0x56',
        '[    3.635335] KABOOM: kaboom_init: WARNING',
        '#0  0x00007ffff7a42428 in __GI_raise (sig=sig@entry=6) at ../sysdeps/unix/sysv/linux/raise.c:54',
        '    #1 0x4c6f21 in main /src/app/main.c:12:5',
        '# tests 4',
      ].join('\n'),
    );
    expect(lines[0]!.flags).toContain('StackHeader');
    expect(lines[1]!.flags).toContain('StackFrame');
    expect(lines[2]!.flags).not.toContain('StackFrame');
    expect(lines[3]!.flags).toEqual(expect.arrayContaining(['StackFrame', 'Location']));
    expect(lines[4]!.flags).toEqual(expect.arrayContaining(['StackFrame', 'Location']));
    expect(lines[5]!.flags).toEqual(['Summary', 'VerdictCue']);
  });

  it('Python chained exceptions', () => {
    expect(one('During handling of the above exception, another exception occurred:').flags).toContain('StackHeader');
    expect(one('The above exception was the direct cause of the following exception:').flags).toContain('StackHeader');
  });

  it('C#', () => {
    const line = one('   at Sample.Program.Main(String[] args) in C:\\src\\Program.cs:line 42');
    expect(line.flags).toEqual(expect.arrayContaining(['StackFrame', 'Location']));
  });
});

describe(`locations and compiler diagnostics (${backendName})`, () => {
  it.each([
    [
      '[Build on CentOS 7] keyval_lex.c:947:23: warning: comparison between signed and unsigned integer expressions [-Wsign-compare]',
      Severity.Warn,
    ],
    [
      '[WARNING] C:\\Build\\SourceDBCore.java:[1756,28] [deprecation] getCharacterOutputStream() in oracle.sql.CLOB has been deprecated',
      Severity.Warn,
    ],
    [
      "        Fluent\\Subroutine.cs(55,26): warning CS0108: 'Subroutine.BuildRoot' hides inherited member",
      Severity.Warn,
    ],
    [
      'D:\\CODE\\ApplicationCpu.c(121) : Warning[Pe177]: variable "loc_result" was declared but never referenced',
      Severity.Warn,
    ],
    ["..\\bubble.cpp(17): warning C4101: 'a': unreferenced local variable", Severity.Warn],
    ["src/app.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.", Severity.Error],
    ["i:\\devel\\Program.cs(12): warning : CA1801 : Microsoft.Usage : Parameter 'args' is never used.", Severity.Warn],
    [
      '    [javac] /pmd/src/net/sourceforge/pmd/renderers/AbstractRenderer.java:33: warning: [deprecation] render',
      Severity.Warn,
    ],
  ])('%s', (line, severity) => {
    const got = one(line);
    expect(got.flags).toEqual(expect.arrayContaining(['Location', 'Diagnostic']));
    expect(got.severity).toBe(severity);
  });

  it('recognises diagnostics without a location', () => {
    expect(one('error[E0382]: borrow of moved value: `v`').flags).toContain('Diagnostic');
    expect(one('MSBUILD : warning : CA2210 : Microsoft.Design : Sign the assembly').flags).toContain('Diagnostic');
    expect(one('error: could not compile `app` due to 2 previous errors').flags).toContain('Diagnostic');
    expect(
      one('[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.1:compile').flags,
    ).toEqual(expect.arrayContaining(['Diagnostic', 'Failure']));
  });

  it('does not take host:port, dates or method calls for locations', () => {
    expect(one('[10.30 16:49:06] chrome.exe - proxy.cse.cuhk.edu.hk:5070 open through proxy').flags).not.toContain(
      'Location',
    );
    expect(one('connect to 10.251.73.220:50010 ok').flags).not.toContain('Location');
    expect(
      one('Jul  1 09:29:02 host sandboxd[129]: com.apple.Addres(31211) deny network-outbound').flags,
    ).not.toContain('Location');
    expect(one('Proxifier error : A connection request was canceled').flags).not.toContain('Diagnostic');
  });
});

describe(`test failures and summaries (${backendName})`, () => {
  it('pytest', () => {
    const lines = classify(
      [
        '>       assert param1 * 2 < param2',
        'E       assert (3 * 2) < 6',
        '',
        'failure_demo.py:21: AssertionError',
        'FAILED failure_demo.py::test_generative[3-6] - assert (3 * 2) < 6',
        '============================ 44 failed in 0.12s ============================',
      ].join('\n'),
    );
    expect(lines[0]!.flags).toContain('TestFailure');
    expect(lines[1]!.flags).toContain('TestFailure');
    expect(lines[3]!.flags).toEqual(expect.arrayContaining(['TestFailure', 'Location', 'Failure']));
    expect(lines[4]!.flags).toContain('TestFailure');
    expect(lines[5]!.flags).toEqual(expect.arrayContaining(['Summary', 'Failure']));
  });

  it('jest', () => {
    const lines = classify(
      [
        'FAIL src/sum.test.js',
        '  ● adds 1 + 2 to equal 3',
        '    Expected: 3',
        '    Received: 4',
        '    - Expected  - 1',
        '    + Received  + 1',
        'Tests:       1 failed, 2 passed, 3 total',
        '  ✕ adds 1 + 2 to equal 3 (5 ms)',
      ].join('\n'),
    );
    expect(lines[0]!.flags).toContain('TestFailure');
    expect(lines[2]!.flags).toContain('TestFailure');
    expect(lines[3]!.flags).toContain('TestFailure');
    expect(lines[4]!.flags).toContain('TestFailure');
    expect(lines[5]!.flags).toContain('TestFailure');
    expect(lines[6]!.flags).toContain('Summary');
    expect(lines[7]!.flags).toContain('TestFailure');
  });

  it('go test', () => {
    const lines = classify(
      [
        '=== RUN   TestFailing',
        '    calculator_test.go:19: expected 1+1 = 3, got 2',
        '--- FAIL: TestFailing (0.89s)',
        'FAIL',
        'FAIL\tgithub.com/example/calculator\t0.894s',
        'ok  \tgithub.com/example/other\t0.012s',
      ].join('\n'),
    );
    expect(lines[0]!.flags).not.toContain('TestFailure');
    expect(lines[1]!.flags).toContain('Location');
    expect(lines[2]!.flags).toContain('TestFailure');
    expect(lines[3]!.flags).toEqual(expect.arrayContaining(['TestFailure', 'Summary']));
    expect(lines[4]!.flags).toEqual(expect.arrayContaining(['TestFailure', 'Summary']));
    expect(lines[5]!.flags).toContain('Summary');
  });

  it('cargo, TAP, maven, msbuild, tsc, mocha', () => {
    expect(one('test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out').flags).toContain(
      'Summary',
    );
    expect(one('warning: `gitlab-checks` (build script) generated 1 warning').flags).toContain('Summary');
    expect(one('not ok 2 - should add').flags).toContain('TestFailure');
    expect(one('# fail 2').flags).toContain('Summary');
    expect(one('[INFO] BUILD FAILURE').flags).toContain('Summary');
    expect(one('BUILD FAILURE').flags).toContain('Summary');
    expect(one('Build FAILED.').flags).toContain('Summary');
    expect(one('  Code Analysis Complete -- 0 error(s), 2 warning(s)').flags).toContain('Summary');
    expect(one('Found 3 errors in 2 files.').flags).toContain('Summary');
    expect(one('  2 failing').flags).toContain('Summary');
    expect(one('[WARNING] Tests run: 1209, Failures: 0, Errors: 0, Skipped: 3').flags).toContain('Summary');
    expect(one('× renders the header').flags).toContain('TestFailure');
    expect(one('Jul  1 21:03:00 host WindowServer[184]: pid 445 failed to act on a ping').flags).not.toContain(
      'Summary',
    );
    expect(one('2931 WARNING nova.virt.libvirt.imagecache').flags).not.toContain('Summary');
  });
});

describe(`ANSI, blank and edge cases (${backendName})`, () => {
  it('flags ANSI escapes and reads the words between them', () => {
    const got = one('\u001b[1;31mERROR\u001b[0m: build failed');
    expect(got.flags).toEqual(expect.arrayContaining(['Ansi', 'Failure']));
    expect(got.severity).toBe(Severity.Error);
  });

  it('flags whitespace-only lines as blank', () => {
    expect(classify('a\n\n \t \n\u001b[0m\nb').map((l) => l.flags)).toEqual([
      [],
      ['Blank'],
      ['Blank'],
      ['Ansi', 'Blank'],
      [],
    ]);
  });

  it('survives truncated escapes, lone surrogates and NUL', () => {
    for (const text of [
      '\u001b',
      '\u001b[',
      '\u001b]0;title',
      'x\u001b[31',
      '\ud800ERROR\udfff',
      '\u0000error:',
      'a.c:',
      'a.c(',
      'x.java:[',
      '<',
      '<99999>',
      'E',
      'E/',
      'error[',
      'level=',
    ]) {
      const lines = classify(text);
      expect(lines.length).toBe(1);
    }
  });

  it('rejects a line table shorter than its count', () => {
    const backend = testBackend();
    backend.begin('a\nb\n');
    const lines = {
      count: 3,
      start: new Int32Array(2),
      end: new Int32Array(2),
      hashA: new Uint32Array(2),
      hashB: new Uint32Array(2),
    };
    expect(() => backend.classifyLines(lines)).toThrow(RangeError);
  });

  it('clamps line bounds outside the text instead of reading past it', () => {
    const backend = testBackend();
    backend.begin('ERROR x');
    const lines = {
      count: 2,
      start: Int32Array.from([-5, 3]),
      end: Int32Array.from([99, 1]),
      hashA: new Uint32Array(2),
      hashB: new Uint32Array(2),
    };
    const { flags } = backend.classifyLines(lines);
    expect(severityOf(flags[0]!)).toBe(Severity.Error);
    expect(flags[1]).toBe(LineFlag.Blank);
  });

  it('summarises the whole text: all class bits and the highest severity', () => {
    const a = new TextAnalysis('INFO start\nsrc/a.c:1:2: warning: x\nFATAL: gone\n', testBackend());
    const { summary } = a.classes;
    expect(severityOf(summary)).toBe(Severity.Fatal);
    expect(summary & LineFlag.Diagnostic).toBe(LineFlag.Diagnostic);
    expect(summary & LineFlag.Blank).toBe(0);
  });
});
