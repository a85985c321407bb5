// Severity comes from a severity field or position, not from a level word
// anywhere on the line (a file named DEBUG in a listing is not a DEBUG line).
import { describe, expect, it } from 'vitest';
import { SEVERITY_NAMES, severityOf } from '../../src/engine/flags.js';
import { TextAnalysis } from '../../src/engine/index.js';
import { backendName, testBackend } from '../support/backend.js';

const CASES: [line: string, severity: (typeof SEVERITY_NAMES)[number]][] = [
  ['2026-11-30 10:00:01 DEBUG worker: idle 4', 'DEBUG'],
  ['081109 203615 148 INFO dfs.DataNode$PacketResponder: Received block', 'INFO'],
  ['[WARN] disk at 91%', 'WARN'],
  ['ts=2026-11-30T10:00:00Z level=error msg="connection refused"', 'ERROR'],
  ['E   assert 3 == 4', 'ERROR'],
  ['"foo.asm", ERROR!   at line 5: [E0002] Illegal mnemonic specified', 'ERROR'],
  ['[    3.635335] KABOOM: kaboom_init: WARNING', 'WARN'],
  ['-rw-r--r-- 1 dev dev    0 Dec  1 15:18 DEBUG', 'other'],
  ['drwxr-xr-x 2 dev dev 4096 Dec  1 15:18 ERROR', 'other'],
  ['-rw-r--r-- 1 dev dev  812 Dec  1 15:18 WARNING.md', 'other'],
  ['        Csc.exe /noconfig /warn:4 /define:DEBUG;TRACE /reference:System.dll', 'other'],
];

describe(`severity from a field (${backendName})`, () => {
  it.each(CASES)('%s -> %s', (line, severity) => {
    const analysis = new TextAnalysis(line, testBackend());
    expect(SEVERITY_NAMES[severityOf(analysis.classes.flags[0]!)]).toBe(severity);
  });
});
