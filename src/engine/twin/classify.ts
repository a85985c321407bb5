// TypeScript twin of assembly/classify.ts: the same rules over the same scan of
// words and punctuation, with bit-identical results (test/system/differential).
// It leaves out the kernel's speed-ups, none of which changes a result: the
// three-letter prefix filter (PREFIXES3), the per-unit dispatch table and the
// SIMD word scan.
// Flag bits: ../flags.ts.
import { LineFlag } from '../flags.js';
import { checkLineBounds } from '../contract.js';

const FAILURE: number = LineFlag.Failure;
const STACK_FRAME: number = LineFlag.StackFrame;
const STACK_HEADER: number = LineFlag.StackHeader;
const LOCATION: number = LineFlag.Location;
const DIAGNOSTIC: number = LineFlag.Diagnostic;
const TEST_FAILURE: number = LineFlag.TestFailure;
const SUMMARY: number = LineFlag.Summary;
const ANSI: number = LineFlag.Ansi;
const BLANK: number = LineFlag.Blank;
const OUTCOME: number = LineFlag.Outcome;
const PRESERVE_CUE: number = LineFlag.PreserveCue;
const VERDICT_CUE: number = LineFlag.VerdictCue;

const ESC: number = 27;

let T = ''; // the text of the current call

function at(i: number): number {
  return T.charCodeAt(i);
}
function isUpper(c: number): boolean {
  return (c - 65) >>> 0 < 26;
}
function isLower(c: number): boolean {
  return (c - 97) >>> 0 < 26;
}
function isLetter(c: number): boolean {
  return ((c | 32) - 97) >>> 0 < 26;
}
function isDigit(c: number): boolean {
  return (c - 48) >>> 0 < 10;
}
function isHexDigit(c: number): boolean {
  return isDigit(c) || ((c | 32) - 97) >>> 0 < 6;
}
function isWordChar(c: number): boolean {
  return isLetter(c) || isDigit(c) || c == 95;
}
function isBlankChar(c: number): boolean {
  return c == 32 || c == 9 || c == 13 || c == 11 || c == 12;
}
function lower(c: number): number {
  return isUpper(c) ? c | 32 : c;
}

// First two letters (lowercase) of every word a rule looks at: level words,
// keys, keywords, count words. A word or segment starting otherwise is skipped
// at the cost of one table load. Bit s of SECOND[f] stands for the prefix fs.
const PREFIXES = 'ab al as ca co cr db de em er ex fa fi ft go in ki le lo lv no ok oo ou pa re se ti tr un ve wa wr';
const SECOND = new Uint32Array(26);
for (let k = 0; k < PREFIXES.length; k += 3) {
  SECOND[PREFIXES.charCodeAt(k) - 97]! |= 1 << (PREFIXES.charCodeAt(k + 1) - 97);
}
function secondLetters(first: number): number {
  return SECOND[first]!;
}

/** text[a, a+2) is the start of a word some rule looks at (see PREFIXES). */
function candidate(a: number): boolean {
  const first = lower(at(a)) - 97;
  const second = lower(at(a + 1)) - 97;
  return first >>> 0 < 26 && second >>> 0 < 26 && (secondLetters(first) & (1 << second)) != 0;
}

/** text[a, a+len) equals `s` (lowercase) ignoring ASCII case. */
function eqi(a: number, len: number, s: string): boolean {
  if (len != s.length) return false;
  for (let k = 0; k < len; k++) if (lower(at(a + k)) != s.charCodeAt(k)) return false;
  return true;
}

/** text[a, e) starts with `s`, exactly. */
function startsWith(a: number, e: number, s: string): boolean {
  const n = s.length;
  if (e - a < n) return false;
  for (let k = 0; k < n; k++) if (at(a + k) != s.charCodeAt(k)) return false;
  return true;
}

/** text[a, e) starts with `s` (lowercase) ignoring ASCII case, followed by a non-word unit or the end. */
function phraseAt(a: number, e: number, s: string): boolean {
  const n = s.length;
  if (e - a < n) return false;
  for (let k = 0; k < n; k++) if (lower(at(a + k)) != s.charCodeAt(k)) return false;
  return a + n == e || !isWordChar(at(a + n));
}

/** Index after the escape sequence at i (CSI, OSC or a two-unit escape), at most e. */
function skipAnsi(i: number, e: number): number {
  let j = i + 1;
  if (j >= e) return e;
  const kind = at(j);
  j++;
  if (kind == 91) {
    // CSI: ESC [ params intermediates final
    while (j < e && (at(j) - 0x30) >>> 0 < 0x10) j++;
    while (j < e && (at(j) - 0x20) >>> 0 < 0x10) j++;
    if (j < e && (at(j) - 0x40) >>> 0 < 0x3f) j++;
    return j;
  }
  if (kind == 93) {
    // OSC: up to BEL; an ESC ends it too (ESC \ is then its own escape)
    while (j < e && at(j) != 7 && at(j) != ESC) j++;
    if (j < e && at(j) == 7) j++;
    return j;
  }
  return j;
}

/** First index at or after i that is not inside an ANSI escape, at most e. */
function significant(i: number, e: number): number {
  while (i < e && at(i) == ESC) i = skipAnsi(i, e);
  return i;
}

/** Severity named by a level word (any case); 8 is added for forms that need brackets or a key. */
function levelWord(a: number, len: number): number {
  switch (lower(at(a))) {
    case 97: // a
      if (eqi(a, len, 'alert')) return 6 + 8;
      break;
    case 99: // c
      if (eqi(a, len, 'critical')) return 6;
      if (eqi(a, len, 'crit') || eqi(a, len, 'crt')) return 6 + 8;
      break;
    case 100: // d
      if (eqi(a, len, 'debug')) return 2;
      if (eqi(a, len, 'dbg')) return 2 + 8;
      break;
    case 101: // e
      if (eqi(a, len, 'error')) return 5;
      if (eqi(a, len, 'err')) return 5 + 8;
      if (eqi(a, len, 'emerg') || eqi(a, len, 'emergency')) return 6 + 8;
      break;
    case 102: // f
      if (eqi(a, len, 'fatal')) return 6;
      if (eqi(a, len, 'ftl')) return 6 + 8;
      if (eqi(a, len, 'fine')) return 2 + 8;
      if (eqi(a, len, 'finer') || eqi(a, len, 'finest')) return 1 + 8;
      break;
    case 105: // i
      if (eqi(a, len, 'info')) return 3;
      if (eqi(a, len, 'inf') || eqi(a, len, 'information')) return 3 + 8;
      break;
    case 110: // n
      if (eqi(a, len, 'notice')) return 3;
      break;
    case 112: // p
      if (eqi(a, len, 'panic')) return 6;
      break;
    case 115: // s
      if (eqi(a, len, 'severe')) return 5;
      break;
    case 116: // t
      if (eqi(a, len, 'trace')) return 1;
      if (eqi(a, len, 'trc')) return 1 + 8;
      break;
    case 118: // v
      if (eqi(a, len, 'verbose')) return 1;
      break;
    case 119: // w
      if (eqi(a, len, 'warn') || eqi(a, len, 'warning')) return 4;
      if (eqi(a, len, 'wrn')) return 4 + 8;
      break;
  }
  return 0;
}

/**
 * An upper-case level word is a severity field only where a field stands: after
 * the line start, a blank or a bracket, and before a separator and more text
 * (`INFO  [http] GET`, `ERROR: disk full`, `WARNING! at line 5`), or last after
 * a label (`status: ERROR`). A file named `DEBUG` at the end of a listing line,
 * `ERROR.md` or `/define:DEBUG;TRACE` names no severity.
 */
function levelField(n: number, e: number): boolean {
  const p = prevSig;
  if (!(p == 0 || isBlankChar(p) || p == 91 || p == 124 || p == 40 || p == 60 || p == 93 || p == 44 || p == 58))
    return false;
  if (n < e) {
    const c = at(n);
    if (!(isBlankChar(c) || c == 58 || c == 93 || c == 124 || c == 41 || c == 33)) return false;
    let k = n + 1;
    while (k < e && (isBlankChar(at(k)) || at(k) == 58 || at(k) == 33)) k++;
    if (k < e) return true;
  }
  return lastNonBlank == 58;
}

/** Severity of a one-letter Android/glog level (V D I W E F A), or 0. */
function letterLevel(c: number): number {
  switch (c) {
    case 86:
      return 1; // V
    case 68:
      return 2; // D
    case 73:
      return 3; // I
    case 87:
      return 4; // W
    case 69:
      return 5; // E
    case 70:
      return 6; // F
    case 65:
      return 6; // A (assert)
  }
  return 0;
}

/** Severity from the very start of an unindented line: `<3>`, `E/Tag`, pytest `E `, glog `E0317 `. */
function startSeverity(s: number, e: number): number {
  const c = at(s);
  if (c == 60) {
    // <N> syslog priority, severity = N & 7
    let k = s + 1;
    let n = 0;
    while (k < e && k < s + 4 && isDigit(at(k))) {
      n = n * 10 + at(k) - 48;
      k++;
    }
    if (k > s + 1 && k < e && at(k) == 62) {
      const level = n & 7;
      return level <= 2 ? 6 : level == 3 ? 5 : level == 4 ? 4 : level <= 6 ? 3 : 2;
    }
    return 0;
  }
  const letter = letterLevel(c);
  if (letter == 0 || s + 1 >= e) return 0;
  const next = at(s + 1);
  if (next == 47 && s + 2 < e && isLetter(at(s + 2))) return letter; // E/Tag(
  if (c == 69 && next == 32) return 5; // pytest's `E   assert ...`
  if (
    (c == 73 || c == 87 || c == 69 || c == 70) &&
    s + 5 < e &&
    at(s + 5) == 32 &&
    isDigit(next) &&
    isDigit(at(s + 2)) &&
    isDigit(at(s + 3)) &&
    isDigit(at(s + 4))
  )
    return letter;
  return 0;
}

/** Classes decided by how a line begins (at f, its first significant unit). */
function startShape(f: number, e: number, indented: boolean): number {
  const c = at(f);
  switch (c) {
    case 70: // F
      if (indented && startsWith(f, e, 'File "')) return STACK_FRAME | LOCATION;
      if (startsWith(f, e, 'FAILED (')) return SUMMARY | TEST_FAILURE;
      break;
    case 97: // a
      if (indented && f + 3 < e && at(f + 1) == 116 && at(f + 2) == 32 && !isBlankChar(at(f + 3))) return STACK_FRAME;
      break;
    case 46: // .
      if (indented && startsWith(f, e, '... ') && f + 4 < e && isDigit(at(f + 4))) return STACK_FRAME;
      break;
    case 0x2717:
    case 0x2715:
    case 0xd7:
    case 0x2718: // ✗ ✕ × ✘
      return TEST_FAILURE;
    case 35: // #
      if (startsWith(f, e, '# fail') || startsWith(f, e, '# pass') || startsWith(f, e, '# tests')) return SUMMARY;
      if (numberedAddress(f + 1, e)) return STACK_FRAME; // gdb / sanitizers: `#0 0x4a5b in main x.c:12`
      break;
    case 84: // T
      if (
        startsWith(f, e, 'Tests:') ||
        startsWith(f, e, 'Test Suites:') ||
        startsWith(f, e, 'Tests run:') ||
        startsWith(f, e, 'Test Files') ||
        startsWith(f, e, 'Total errors')
      )
        return SUMMARY;
      if (startsWith(f, e, 'The above exception was the direct cause')) return STACK_HEADER;
      break;
    case 68: // D
      if (startsWith(f, e, 'During handling of the above exception')) return STACK_HEADER;
      break;
    case 116: // t
      if (startsWith(f, e, 'test result:')) return SUMMARY;
      break;
    case 66: // B
      if (
        startsWith(f, e, 'BUILD FAIL') ||
        startsWith(f, e, 'BUILD SUCC') ||
        startsWith(f, e, 'Build FAILED') ||
        startsWith(f, e, 'Build succeeded')
      )
        return SUMMARY;
      break;
    case 110: // n
      if (startsWith(f, e, 'npm ERR!')) return SUMMARY;
      break;
    case 82: // R
      if (startsWith(f, e, 'Ran ') && f + 4 < e && isDigit(at(f + 4))) return SUMMARY;
      break;
  }
  return 0;
}

/** Summary and test classes after a leading `[INFO] ` / `[ERROR] ` tag (Maven's `[INFO] BUILD FAILURE`). */
function taggedShape(f: number, e: number): number {
  let k = f + 1;
  const limit = Math.min(e, f + 24);
  while (k < limit && at(k) != 93) k++;
  if (k >= limit) return 0;
  k++;
  const tagEnd = k;
  while (k < e && isBlankChar(at(k))) k++;
  if (k == tagEnd || k >= e) return 0;
  return startShape(k, e, false) & (SUMMARY | TEST_FAILURE);
}

/** `digits blanks 0x` at k: a numbered frame address (`#0  0x00007f…`). */
function numberedAddress(k: number, e: number): boolean {
  const digits = k;
  while (k < e && isDigit(at(k))) k++;
  if (k == digits || k >= e || at(k) != 32) return false;
  while (k < e && at(k) == 32) k++;
  return startsWith(k, e, '0x');
}

/** A kernel frame address `[<ffffffff8105571d>]` starts at the `[` at i. */
function kernelAddress(i: number, e: number): boolean {
  let k = i + 2;
  const limit = Math.min(e, k + 16);
  const digits = k;
  while (k < limit && isHexDigit(at(k))) k++;
  return k > digits && k + 1 < e && at(k) == 62 && at(k + 1) == 93;
}

/** Rust backtrace frame candidate: indented `digits: ` (confirmed by a `::` on the line). */
function rustFrameStart(f: number, e: number): boolean {
  let k = f;
  while (k < e && isDigit(at(k))) k++;
  return k > f && k + 1 < e && at(k) == 58 && at(k + 1) == 32;
}

/**
 * Location after `name.ext` at the punctuation p (`:` or `(`): 0 none, 1 a
 * location, 2 a Go frame's (`:12 +0x1d`), 3 a line and column in parentheses,
 * 4 `:12` ending the line (a location only on a frame line: `host.com:443` is not).
 */
function locationAt(p: number, e: number): number {
  let k = p + 1;
  if (at(p) == 40) {
    // (12) or (12,5)
    const d = k;
    while (k < e && isDigit(at(k))) k++;
    if (k == d) return 0;
    let found = 1;
    if (k < e && at(k) == 44) {
      k++;
      const d2 = k;
      while (k < e && isDigit(at(k))) k++;
      if (k == d2) return 0;
      found = 3;
    }
    return k < e && at(k) == 41 ? found : 0;
  }
  if (k < e && at(k) == 91) return k + 1 < e && isDigit(at(k + 1)) ? 1 : 0; // :[42,7]
  if (startsWith(k, e, 'line ')) return k + 5 < e && isDigit(at(k + 5)) ? 1 : 0; // :line 42
  const d = k;
  while (k < e && isDigit(at(k))) k++;
  if (k == d) return 0;
  if (k >= e) return 4;
  const c = at(k);
  if (c == 58 || c == 41 || c == 44) return 1;
  if (c == 32 && startsWith(k + 1, e, '+0x')) return 2;
  return 0;
}

/** Compiler diagnostic after the word error/warning ending at we. */
function diagnosticAfter(we: number, e: number, afterColon: boolean): boolean {
  const n = significant(we, e);
  if (n >= e) return false;
  const c = at(n);
  if (c == 58) return n + 1 >= e || at(n + 1) != 58; // error:  (not error::)
  if (c == 91) {
    // error[E0382]:  Warning[Pe177]:
    let k = n + 1;
    const limit = Math.min(e, n + 24);
    while (k < limit && at(k) != 93 && !isBlankChar(at(k))) k++;
    return k + 1 < e && at(k) == 93 && at(k + 1) == 58;
  }
  if (c == 32 && n + 1 < e) {
    if (at(n + 1) == 58) return afterColon; // MSBuild's `X.cs(12): warning :`, `MSBUILD : error :`
    let k = n + 1;
    const letters = k;
    while (k < e && k < letters + 4 && isUpper(at(k))) k++;
    if (k == letters) return false;
    const digits = k;
    while (k < e && k < digits + 6 && isDigit(at(k))) k++;
    return k > digits && k < e && at(k) == 58; // error TS2345:  warning CS0108:  error C2065:
  }
  return false;
}

/** A count phrase ends at we: line end, `,;.)|`, or ` (`, ` |`, ` =`, ` in 0.1s` (not `2 failed to ...`). */
function countEnds(we: number, e: number): boolean {
  if (we >= e) return true;
  const c = at(we);
  if (c == 44 || c == 59 || c == 46 || c == 41 || c == 124) return true;
  if (c != 32 || we + 1 >= e) return false;
  const d = at(we + 1);
  if (d == 40 || d == 124 || d == 61) return true;
  return startsWith(we + 1, e, 'in ') && we + 4 < e && isDigit(at(we + 4));
}

/** Index where the value of a `level=`/`"level": "` key starts, or -1. */
function keyValueStart(we: number, e: number): number {
  let k = we;
  if (k < e && (at(k) == 34 || at(k) == 39)) k++;
  if (k >= e || (at(k) != 58 && at(k) != 61)) return -1;
  k++;
  const limit = k + 4;
  while (k < e && k < limit && at(k) == 32) k++;
  if (k < e && (at(k) == 34 || at(k) == 39)) k++;
  return k;
}

/** text[a, ...) starts with `s` (lowercase) ignoring ASCII case (the caller knows the text is long enough). */
function startsWithI(a: number, s: string): boolean {
  for (let k = 0; k < s.length; k++) if (lower(at(a + k)) != s.charCodeAt(k)) return false;
  return true;
}

/** The errno word text[a, a+len) after a syscall's `= -1 ` is a failure: not a retry (EAGAIN, EINPROGRESS, EWOULDBLOCK). */
function failedCall(a: number, len: number): boolean {
  return len >= 3 && !eqi(a, len, 'eagain') && !eqi(a, len, 'einprogress') && !eqi(a, len, 'ewouldblock');
}

/**
 * After an `exit…` word: a non-zero code or a signal within the next 32 units,
 * past separators and the words with, code, status, value, by, exit
 * (`exit code 2`, `exited with 1`, `exit_group(1)`, `ExitCode: 137`,
 * `exited with signal`, `exit status 1`; not `exit code 0`, not `exit the loop`).
 */
function nonZeroAfter(k: number, e: number): boolean {
  const end = Math.min(e, k + 32);
  while (k < end) {
    const c = at(k);
    if (isBlankChar(c) || c == 58 || c == 61 || c == 40 || c == 44 || c == 34 || c == 39) {
      k++;
      continue;
    }
    if (isLetter(c)) {
      let j = k;
      while (j < end && isLetter(at(j))) j++;
      const len = j - k;
      if (
        eqi(k, len, 'with') ||
        eqi(k, len, 'code') ||
        eqi(k, len, 'status') ||
        eqi(k, len, 'value') ||
        eqi(k, len, 'by') ||
        eqi(k, len, 'exit')
      ) {
        k = j;
        continue;
      }
      return eqi(k, len, 'signal') || (len > 3 && startsWith(k, j, 'SIG'));
    }
    if (c == 45) return k + 1 < e && isDigit(at(k + 1)); // exit -1
    if (!isDigit(c)) return false;
    while (k < e && at(k) == 48) k++;
    return k < e && isDigit(at(k));
  }
  return false;
}

/** Flags for a keyword segment text[a, b) of a word (bounded by word edges or camel-case humps). */
function segmentFlags(a: number, b: number, e: number): number {
  const len = b - a;
  if (len < 3 || len > 12 || !candidate(a)) return 0;
  switch (lower(at(a))) {
    case 97: // a
      if (eqi(a, len, 'abort') || eqi(a, len, 'aborts') || eqi(a, len, 'aborted') || eqi(a, len, 'aborting'))
        return FAILURE;
      if (eqi(a, len, 'assert') || eqi(a, len, 'asserts') || eqi(a, len, 'assertion')) return TEST_FAILURE;
      break;
    case 99: // c
      if (eqi(a, len, 'cannot') || eqi(a, len, 'critical')) return FAILURE;
      if (eqi(a, len, 'core') && phraseAt(b, e, ' dumped')) return OUTCOME;
      break;
    case 100: // d
      if (eqi(a, len, 'denied')) return FAILURE;
      break;
    case 101: // e
      if (eqi(a, len, 'error') || eqi(a, len, 'errors') || eqi(a, len, 'exception') || eqi(a, len, 'exceptions'))
        return FAILURE;
      break;
    case 102: // f
      if (
        eqi(a, len, 'fail') ||
        eqi(a, len, 'fails') ||
        eqi(a, len, 'failed') ||
        eqi(a, len, 'failure') ||
        eqi(a, len, 'failures') ||
        eqi(a, len, 'failing') ||
        eqi(a, len, 'fatal')
      )
        return FAILURE;
      break;
    case 107: // k
      if (eqi(a, len, 'killed')) return OUTCOME;
      break;
    case 110: // n
      if (len == 3 && eqi(a, len, 'not') && phraseAt(b, e, ' found')) return FAILURE;
      break;
    case 111: // o
      if (eqi(a, len, 'oom')) return OUTCOME;
      if (eqi(a, len, 'out') && phraseAt(b, e, ' of memory')) return OUTCOME;
      break;
    case 112: // p
      if (eqi(a, len, 'panic') || eqi(a, len, 'panics') || eqi(a, len, 'panicked')) return FAILURE;
      break;
    case 114: // r
      if (eqi(a, len, 'refused')) return FAILURE;
      break;
    case 115: // s
      if (eqi(a, len, 'segfault') || eqi(a, len, 'segfaults') || eqi(a, len, 'segfaulted')) return FAILURE;
      if (eqi(a, len, 'segmentation') && phraseAt(b, e, ' fault')) return FAILURE;
      break;
    case 116: // t
      if (eqi(a, len, 'timeout') || eqi(a, len, 'timeouts') || eqi(a, len, 'traceback')) return FAILURE;
      if (eqi(a, len, 'timed') && phraseAt(b, e, ' out')) return FAILURE;
      break;
    case 117: // u
      if (eqi(a, len, 'unable') && phraseAt(b, e, ' to')) return FAILURE;
      if (eqi(a, len, 'undefined') && phraseAt(b, e, ' reference')) return FAILURE;
      break;
  }
  return 0;
}

// Per-line scan state (module globals keep the helpers' signatures short).
let sev: number = 0;
let diagSev: number = 0;
let flags: number = 0;
let sawLetterWord: boolean = false;
let leadRun: boolean = true;
let prevSig: number = 0;
let lastNonBlank: number = 0;
let numberEnd: number = -1;
let valueAt: number = -1;
let extEnd: number = -1;
let dotAt: number = -1;
let extLen: number = 0;

/**
 * The word text[ws, ws+len) (starting with a letter) may begin a preserved
 * item (src/pipeline/preserve.ts): each of its rules names one of these
 * words, or a `[ ]` box. A cue, not a match: the host runs the rule itself.
 */
function cueWord(ws: number, len: number): boolean {
  switch (lower(at(ws))) {
    case 97:
      return len >= 6 && startsWithI(ws, 'action');
    case 98:
      return len >= 8 && startsWithI(ws, 'breaking');
    case 99:
      return len >= 3 && startsWithI(ws, 'cve');
    case 100:
      return (len >= 4 && startsWithI(ws, 'deci')) || (len >= 3 && startsWithI(ws, 'did'));
    case 102:
      return len >= 3 && startsWithI(ws, 'fix');
    case 103:
      return (len >= 4 && startsWithI(ws, 'ghsa')) || (len == 2 && startsWithI(ws, 'go'));
    case 104:
      return len >= 4 && (startsWithI(ws, 'help') || startsWithI(ws, 'hint'));
    case 109:
      return len >= 9 && startsWithI(ws, 'migration');
    case 112:
      return (len >= 6 && startsWithI(ws, 'prefer')) || (len >= 5 && startsWithI(ws, 'pysec'));
    case 114:
      return len >= 7 && startsWithI(ws, 'rustsec');
    case 115:
      return (
        (len >= 8 && (startsWithI(ws, 'security') || startsWithI(ws, 'severity'))) ||
        (len >= 10 && startsWithI(ws, 'suggestion'))
      );
    case 116:
      return len >= 4 && startsWithI(ws, 'todo');
    case 118:
      return len >= 8 && startsWithI(ws, 'vulnerab');
  }
  return false;
}

/** text[a, a+len) is exactly `s`. */
function exactly(a: number, len: number, s: string): boolean {
  return len == s.length && startsWith(a, a + len, s);
}

/** A count's number and one blank end just before ws, on the line from f: `2 passing`, `3 errors`. */
function afterCount(ws: number, f: number): boolean {
  return ws - 2 >= f && at(ws - 1) == 32 && isDigit(at(ws - 2));
}

/** `# ` or `ℹ ` just before ws (TAP's and node --test's totals), on the line from f. */
function afterTapMark(ws: number, f: number): boolean {
  return ws - 2 >= f && at(ws - 1) == 32 && (at(ws - 2) == 35 || at(ws - 2) == 0x2139);
}

/** The word text[ws, we) is a file extension before `:` (`a.py::t`, `Cart.java:[5,2]`, `main.go:4:2`). */
function extensionBeforeColon(ws: number, we: number, f: number, e: number): boolean {
  return ws - 1 >= f && at(ws - 1) == 46 && we < e && at(we) == 58;
}

// Lengths of the words verdictWord looks for, by first unit: bit n of
// VERDICT_LENGTHS[c] stands for a word of n units starting with c (bit 31 for
// 31 or more), so most words cost one load and no comparison. Every word
// verdictWord can cue is here (`ERR_PNPM_…` by every length past 9), so the
// filter never changes a result.
const VERDICT_WORDS =
  'BUILD Build ERROR Error Exited ELIFECYCLE FAIL FAILED FAILURE Failed Found OK Process Ran Test Tests Warning completed cancelled collect2 error errors example examples elapsed exit fail failing go groovy gmake generated in java kt kts make ninja npm ok pass passed py passing pending problem problems result rspec scala skip skipped tests todo warning warnings';
const VERDICT_LENGTHS = new Uint32Array(128);
for (const word of VERDICT_WORDS.split(' ')) VERDICT_LENGTHS[word.charCodeAt(0)]! |= 1 << word.length;
VERDICT_LENGTHS[69]! |= ~((1 << 10) - 1); // E: ERR_PNPM_…

/** A word of `len` units starting with c (a letter) may be one verdictWord cues. */
function verdictLength(c: number, len: number): boolean {
  return (VERDICT_LENGTHS[c]! & (1 << Math.min(len, 31))) !== 0;
}

/**
 * The word text[ws, we) (starting with a letter; exact case) on the line
 * [f, e) is one some verdict rule (src/pipeline/verdict/rules.ts) cannot
 * match without, with the neighbours the rule gives it: every rule's pattern
 * holds one of these words, bounded by non-word units as the scan bounds
 * words. A cue, not a match: the host runs the rules on the lines cued.
 * test/unit/verdict.test.ts checks it against every rule over the corpora.
 */
function verdictWord(ws: number, we: number, f: number, e: number): boolean {
  const len = we - ws;
  const next = we < e ? at(we) : 0;
  switch (at(ws)) {
    case 66: // B
      return exactly(ws, len, 'BUILD') || exactly(ws, len, 'Build');
    case 69: // E
      if (exactly(ws, len, 'ERROR')) return next == 58;
      if (exactly(ws, len, 'Error')) return next == 40 || next == 91;
      return (
        exactly(ws, len, 'Exited') || exactly(ws, len, 'ELIFECYCLE') || (len > 9 && startsWith(ws, we, 'ERR_PNPM_'))
      );
    case 70: // F
      return (
        exactly(ws, len, 'FAIL') ||
        exactly(ws, len, 'FAILED') ||
        exactly(ws, len, 'FAILURE') ||
        exactly(ws, len, 'Failed') ||
        exactly(ws, len, 'Found')
      );
    case 79: // O
      return exactly(ws, len, 'OK');
    case 80: // P
      return exactly(ws, len, 'Process');
    case 82: // R
      return exactly(ws, len, 'Ran');
    case 84: // T
      return exactly(ws, len, 'Test') || exactly(ws, len, 'Tests');
    case 87: // W
      return exactly(ws, len, 'Warning') && (next == 40 || next == 91);
    case 99: // c
      if (exactly(ws, len, 'completed')) return next == 44;
      if (exactly(ws, len, 'cancelled')) return afterTapMark(ws, f);
      return exactly(ws, len, 'collect2');
    case 101: // e
      if (exactly(ws, len, 'error')) {
        return next == 58 || next == 91 || (next == 32 && we + 1 < e && isUpper(at(we + 1))) || afterCount(ws, f);
      }
      if (exactly(ws, len, 'errors')) return afterCount(ws, f);
      if (exactly(ws, len, 'example') || exactly(ws, len, 'examples')) return next == 44;
      if (exactly(ws, len, 'elapsed')) return next == 58;
      return exactly(ws, len, 'exit') && next == 32;
    case 102: // f
      if (exactly(ws, len, 'fail')) return afterTapMark(ws, f);
      return exactly(ws, len, 'failing') && afterCount(ws, f);
    case 103: // g
      if (exactly(ws, len, 'go') || exactly(ws, len, 'groovy')) return extensionBeforeColon(ws, we, f, e);
      if (exactly(ws, len, 'gmake')) return next == 58 || next == 91;
      return exactly(ws, len, 'generated');
    case 105: // i
      return exactly(ws, len, 'in') && next == 32 && we + 1 < e && isDigit(at(we + 1));
    case 106: // j
      return exactly(ws, len, 'java') && extensionBeforeColon(ws, we, f, e);
    case 107: // k
      return (exactly(ws, len, 'kt') || exactly(ws, len, 'kts')) && extensionBeforeColon(ws, we, f, e);
    case 109: // m
      return exactly(ws, len, 'make') && (next == 58 || next == 91);
    case 110: // n
      return exactly(ws, len, 'ninja') || exactly(ws, len, 'npm');
    case 111: // o
      return exactly(ws, len, 'ok') && next == 32 && we + 1 < e && isDigit(at(we + 1));
    case 112: // p
      if (exactly(ws, len, 'pass')) return afterTapMark(ws, f);
      if (exactly(ws, len, 'passed')) return next == 44;
      if (exactly(ws, len, 'py')) return extensionBeforeColon(ws, we, f, e);
      return (
        (exactly(ws, len, 'passing') ||
          exactly(ws, len, 'pending') ||
          exactly(ws, len, 'problem') ||
          exactly(ws, len, 'problems')) &&
        afterCount(ws, f)
      );
    case 114: // r
      return (exactly(ws, len, 'result') && next == 58) || exactly(ws, len, 'rspec');
    case 115: // s
      if (exactly(ws, len, 'scala')) return extensionBeforeColon(ws, we, f, e);
      return (exactly(ws, len, 'skip') || exactly(ws, len, 'skipped')) && afterTapMark(ws, f);
    case 116: // t
      return (exactly(ws, len, 'tests') || exactly(ws, len, 'todo')) && afterTapMark(ws, f);
    case 119: // w
      if (exactly(ws, len, 'warning')) {
        return next == 58 || next == 91 || (next == 32 && we + 1 < e && isUpper(at(we + 1))) || afterCount(ws, f);
      }
      return exactly(ws, len, 'warnings') && afterCount(ws, f);
  }
  return false;
}

/** The word text[ws, we) (maximal [A-Za-z0-9_] run, with `upper` and `lowerCount` letters) on the line [f, e). */
function word(ws: number, we: number, upper: number, lowerCount: number, f: number, e: number): void {
  const len = we - ws;
  const c0 = at(ws);
  if (dotAt >= 0 && ws == dotAt + 1 && isLetter(c0) && len <= 8) {
    extEnd = we;
    extLen = len;
  }
  if (upper + lowerCount == 0) {
    // a number, standing alone if a blank or the line start precedes it
    numberEnd = prevSig == 32 || prevSig == 9 || prevSig == 0 ? we : -1;
    return;
  }
  const firstLetterWord = !sawLetterWord;
  sawLetterWord = true;
  if (!isLetter(c0)) return;
  if ((flags & PRESERVE_CUE) == 0 && cueWord(ws, len)) flags |= PRESERVE_CUE;
  if ((flags & VERDICT_CUE) == 0 && verdictLength(c0, len) && verdictWord(ws, we, f, e)) flags |= VERDICT_CUE;
  if (upper == len && c0 == 69 && ws >= f + 5 && startsWith(ws - 5, e, '= -1 ') && failedCall(ws, len)) {
    flags |= OUTCOME;
  }
  if (len >= 4 && len <= 12 && startsWithI(ws, 'exit') && nonZeroAfter(we, e)) flags |= OUTCOME;

  if (len == 1) {
    // logcat threadtime: `  1702  2395 D WindowManager:`
    if (
      sev == 0 &&
      firstLetterWord &&
      upper == 1 &&
      isDigit(lastNonBlank) &&
      prevSig == 32 &&
      we + 1 < e &&
      at(we) == 32 &&
      isLetter(at(we + 1))
    )
      sev = letterLevel(c0);
    return;
  }
  if (upper + lowerCount == len && candidate(ws)) {
    const allUpper = upper == len;
    const title = isUpper(c0) && lowerCount == len - 1;
    // The next significant unit is looked up only where a rule needs it (most words need none).
    let n = -1;
    let next = 0;
    if (prevSig == 91 || prevSig == 60) {
      n = significant(we, e);
      next = n < e ? at(n) : 0;
    }
    const bracketed = (prevSig == 91 && next == 93) || (prevSig == 60 && next == 62);
    const keyed = ws == valueAt;

    if (sev == 0) {
      const level = len >= 3 && len <= 11 ? levelWord(ws, len) : 0;
      if (level != 0) {
        if (n < 0) {
          n = significant(we, e);
          next = n < e ? at(n) : 0;
        }
        const named = level & 7;
        if (bracketed || keyed) sev = named;
        else if (level >= 8) {
          if (allUpper && len == 3 && lower(c0) == 101) sev = named;
        } // npm's ERR!
        else if ((allUpper && levelField(n, e)) || (firstLetterWord && title)) sev = named;
        else if (firstLetterWord && next == 58 && (n + 1 >= e || at(n + 1) != 58)) sev = named;
      }
    }

    switch (lower(c0)) {
      case 99: // c
        if (firstLetterWord && startsWith(ws, e, 'Caused by:')) flags |= STACK_HEADER;
        if (startsWith(ws, e, 'Call Trace:')) flags |= STACK_HEADER; // Linux kernel oops / WARNING
        break;
      case 101: // e
        if (eqi(ws, len, 'error')) {
          if ((bracketed && allUpper) || diagnosticAfter(we, e, lastNonBlank == 58)) {
            flags |= DIAGNOSTIC;
            if (diagSev == 0) diagSev = 5;
          }
        } else if (firstLetterWord && startsWith(ws, e, 'Exception in thread')) {
          flags |= STACK_HEADER;
        }
        break;
      case 119: // w
        if (eqi(ws, len, 'warning') && ((bracketed && allUpper) || diagnosticAfter(we, e, lastNonBlank == 58))) {
          flags |= DIAGNOSTIC;
          if (diagSev == 0) diagSev = 4;
        }
        break;
      case 102: // f
        if (allUpper && firstLetterWord && (len == 4 || len == 6) && (eqi(ws, len, 'fail') || eqi(ws, len, 'failed'))) {
          flags |= TEST_FAILURE;
          if (ws == f && len == 4) flags |= SUMMARY; // go test's `FAIL` / `FAIL\tpkg 0.1s`
        }
        break;
      case 103: // g
        if (firstLetterWord && eqi(ws, len, 'goroutine') && we + 1 < e && at(we) == 32 && isDigit(at(we + 1)))
          flags |= STACK_HEADER;
        break;
      case 108: // l
        if (eqi(ws, len, 'level') || eqi(ws, len, 'lvl') || eqi(ws, len, 'loglevel') || eqi(ws, len, 'levelname')) {
          valueAt = keyValueStart(we, e);
        }
        break;
      case 110: // n
        if (ws == f && startsWith(ws, e, 'not ok') && (ws + 6 == e || !isWordChar(at(ws + 6)))) flags |= TEST_FAILURE;
        break;
      case 111: // o
        if (
          ws == f &&
          len == 2 &&
          at(ws) == 111 &&
          at(ws + 1) == 107 &&
          we + 1 < e &&
          (at(we) == 9 || (at(we) == 32 && isBlankChar(at(we + 1))))
        )
          flags |= SUMMARY; // go test's `ok  \tpkg`
        break;
      case 112: // p
        if (allUpper && ws == f && eqi(ws, len, 'pass')) flags |= SUMMARY;
        if (len == 8 && eqi(ws, len, 'panicked') && startsWith(we, e, ' at')) flags |= STACK_HEADER;
        break;
      case 115: // s
        if (eqi(ws, len, 'severity')) valueAt = keyValueStart(we, e);
        break;
      case 116: // t
        if (firstLetterWord && startsWith(ws, e, 'Traceback (')) flags |= STACK_HEADER;
        break;
    }
    // jest's `Expected: 3` / `Received: 4` (also after `- ` / `+ ` in a diff)
    if (firstLetterWord && title && len == 8 && (startsWith(ws, e, 'Expected') || startsWith(ws, e, 'Received'))) {
      flags |= TEST_FAILURE;
    }

    // `3 failed`, `0 error(s)`, `5 passing`, `2 warnings`: a lowercase count phrase marks a summary.
    if (numberEnd >= 0 && ws == numberEnd + 1 && at(numberEnd) == 32 && lowerCount == len) {
      if (
        (eqi(ws, len, 'failed') ||
          eqi(ws, len, 'passed') ||
          eqi(ws, len, 'failing') ||
          eqi(ws, len, 'passing') ||
          eqi(ws, len, 'errors') ||
          eqi(ws, len, 'warnings') ||
          eqi(ws, len, 'failures')) &&
        countEnds(we, e)
      ) {
        flags |= SUMMARY;
      } else if (
        (eqi(ws, len, 'error') || eqi(ws, len, 'warning')) &&
        (startsWith(we, e, '(s)') || startsWith(we, e, ' generated') || ((flags & DIAGNOSTIC) != 0 && countEnds(we, e)))
      ) {
        // cargo's `warning: ... generated 1 warning`
        flags |= SUMMARY;
      }
    }
  }

  // Keyword segments: letter runs split at camel-case humps; a segment counts
  // only where both its edges are word edges or humps (not digits or `_`).
  // A word of letters in one case (or capitalised) is a single segment.
  if (upper + lowerCount == len && (upper == 0 || lowerCount == 0 || (upper == 1 && isUpper(c0)))) {
    wholeSegment(ws, we, e);
    return;
  }
  let k = ws;
  while (k < we) {
    if (!isLetter(at(k))) {
      k++;
      continue;
    }
    const runStart = k;
    while (k < we && isLetter(at(k))) k++;
    const runEnd = k;
    let a = runStart;
    let startOk = runStart == ws;
    for (let m = runStart + 1; m < runEnd; m++) {
      const c = at(m);
      if (isUpper(c)) {
        const p = at(m - 1);
        if (isLower(p) || (isUpper(p) && m + 1 < runEnd && isLower(at(m + 1)))) {
          if (startOk) flags |= segmentFlags(a, m, e);
          a = m;
          startOk = true;
        }
      }
    }
    if (startOk && runEnd == we) wholeSegment(a, we, e);
  }
}

/** The last segment text[a, we) of a word: its keyword flags, and whether it names a trace. */
function wholeSegment(a: number, we: number, e: number): void {
  const found = segmentFlags(a, we, e);
  flags |= found;
  // `java.lang.NullPointerException: x`, `ValueError: x` leading the line name a trace.
  if (found == FAILURE && leadRun && we - a >= 5 && lower(at(a)) == 101 && isUpper(at(a)) && isLower(at(a + 1))) {
    const n = significant(we, e);
    if (n >= e || (at(n) == 58 && (n + 1 >= e || at(n + 1) != 58))) flags |= STACK_HEADER;
  }
}

/** Flags word of the line [s, e). */
function classifyLine(s: number, e: number): number {
  flags = 0;
  let f = s;
  let indented = false;
  while (f < e) {
    const c = at(f);
    if (c == ESC) {
      flags |= ANSI;
      f = skipAnsi(f, e);
      continue;
    }
    if (!isBlankChar(c)) break;
    indented = true;
    f++;
  }
  if (f >= e) return flags | BLANK;

  sev = f == s ? startSeverity(s, e) : 0;
  diagSev = 0;
  flags |= startShape(f, e, indented);
  if (at(f) == 91) flags |= taggedShape(f, e);
  const rustCandidate = indented && isDigit(at(f)) && rustFrameStart(f, e);
  sawLetterWord = false;
  leadRun = true;
  prevSig = indented ? 32 : 0;
  lastNonBlank = 0;
  numberEnd = -1;
  valueAt = -1;
  extEnd = -1;
  dotAt = -1;
  extLen = 0;
  let doubleColon = false;

  let i = f;
  while (i < e) {
    const c = at(i);
    if (c == ESC) {
      flags |= ANSI;
      i = skipAnsi(i, e);
      continue;
    }
    if (isWordChar(c)) {
      let j = i;
      let upper = 0;
      let lowerCount = 0;
      while (j < e) {
        const w = at(j);
        if (isUpper(w)) upper++;
        else if (isLower(w)) lowerCount++;
        else if (!isDigit(w) && w != 95) break;
        j++;
      }
      word(i, j, upper, lowerCount, f, e);
      prevSig = at(j - 1);
      lastNonBlank = prevSig;
      i = j;
      continue;
    }
    if (isBlankChar(c)) {
      leadRun = false;
    } else {
      lastNonBlank = c;
      if (c == 58 && i + 1 < e && at(i + 1) == 58) doubleColon = true;
      if ((c == 58 || c == 40) && i == extEnd) {
        const where = locationAt(i, e);
        // `name.ext(12)` needs a short extension (not `com.apple.Addres(31211)`); `(12,5)` and `:12:` do not.
        if (
          where == 2 ||
          where == 3 ||
          (where == 1 && (c == 58 || extLen <= 5)) ||
          (where == 4 && (flags & STACK_FRAME) != 0)
        )
          flags |= LOCATION;
        if (where == 2 && indented) flags |= STACK_FRAME;
      }
      if (c == 91 && i + 1 < e && at(i + 1) == 60 && kernelAddress(i, e)) flags |= STACK_FRAME;
      if (c == 91 && i + 2 < e && at(i + 1) == 32 && at(i + 2) == 93) flags |= PRESERVE_CUE; // a `[ ]` box
      if (c == 0x25cf) flags |= VERDICT_CUE; // jest's `● suite › test`
      dotAt = c == 46 && isWordChar(prevSig) ? i : -1;
    }
    prevSig = c;
    i++;
  }
  if (rustCandidate && doubleColon) flags |= STACK_FRAME;
  if (sev == 0) sev = diagSev;
  return flags | sev;
}

/**
 * One flags word per line (layout in ../flags.ts) for the `count` lines
 * text[start[i], end[i]) (bounds clamped to [0, text.length]), and the OR of
 * every line's class bits with the highest severity in bits 0-2.
 */
export function classifyLines(
  text: string,
  count: number,
  start: Int32Array,
  end: Int32Array,
): { flags: Int32Array; summary: number } {
  checkLineBounds(count, start, end);
  T = text;
  const len = text.length;
  const out = new Int32Array(count);
  let summary = 0;
  let highest = 0;
  for (let i = 0; i < count; i++) {
    const e = Math.min(Math.max(end[i]!, 0), len);
    const s = Math.min(Math.max(start[i]!, 0), e);
    const lineFlags = classifyLine(s, e);
    out[i] = lineFlags;
    summary |= lineFlags & ~7;
    highest = Math.max(highest, lineFlags & 7);
  }
  T = '';
  return { flags: out, summary: summary | highest };
}
