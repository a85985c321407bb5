import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ledger } from '../../src/store/index.js';

const HASH = '0123456789abcdef01234567';
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'squeeze-ledger-'));
  dirs.push(dir);
  return dir;
}

describe('ledger strings (docs/GLOSSARY.md, byte for byte)', () => {
  it('formats every line of the table', () => {
    expect(ledger.activated('0.2.1', 8, 268435456)).toBe('ccr: activated (bundle 0.2.1, targets 8, budget 268435456)');
    expect(ledger.compressed('bash', 'terminal', 52000, HASH)).toBe(`ccr: compressed bash terminal 52000 -> ${HASH}`);
    expect(ledger.stored('read', 'file', 3000, HASH)).toBe(`ccr: stored read file 3000 -> ${HASH}`);
    expect(ledger.evicted(HASH, 'budget')).toBe(`ccr: evicted ${HASH} (budget)`);
    expect(ledger.evicted(HASH, 'ttl')).toBe(`ccr: evicted ${HASH} (ttl)`);
    expect(ledger.retrieved(HASH)).toBe(`ccr: retrieved ${HASH}`);
    expect(ledger.retrievalMiss(HASH, 'expired')).toBe(`ccr: retrieval miss ${HASH} (expired)`);
    expect(ledger.retrievalMiss(HASH, 'unknown')).toBe(`ccr: retrieval miss ${HASH} (unknown)`);
    expect(ledger.late('spill save', 'bash', 2000, { id: HASH })).toBe(
      `ccr: spill save for bash timed out after 2000 ms; kept in the CCR store only -> ${HASH}`,
    );
    expect(ledger.late('spill save', 'bash', 2000, 'passed through')).toBe(
      'ccr: spill save for bash timed out after 2000 ms; passed through',
    );
    expect(ledger.late('full-output read', 'bash', 2000, { id: HASH })).toBe(
      `ccr: full-output read for bash timed out after 2000 ms; compressed the harness's tail -> ${HASH}`,
    );
    expect(ledger.late('full-output read', 'bash', 2000, 'passed through')).toBe(
      'ccr: full-output read for bash timed out after 2000 ms; passed through',
    );
  });

  it('maps store events to their lines', () => {
    expect(ledger.storeEventLine({ kind: 'evicted', id: HASH, reason: 'ttl' })).toBe(`ccr: evicted ${HASH} (ttl)`);
    expect(ledger.storeEventLine({ kind: 'retrieved', id: HASH })).toBe(`ccr: retrieved ${HASH}`);
    expect(ledger.storeEventLine({ kind: 'miss', id: HASH, reason: 'unknown' })).toBe(
      `ccr: retrieval miss ${HASH} (unknown)`,
    );
  });
});

describe('log sink', () => {
  it('appends [ISO time] message lines, creating the directory', () => {
    const logFile = join(tempDir(), 'nested', 'dir', 'ccr.log');
    const sink = ledger.createLogSink({ log: true, logFile, now: () => Date.UTC(2026, 10, 30, 9, 0, 0) });
    sink(ledger.retrieved(HASH));
    sink(ledger.evicted(HASH, 'ttl'));
    expect(readFileSync(logFile, 'utf8')).toBe(
      `[2026-11-30T09:00:00.000Z] ccr: retrieved ${HASH}\n[2026-11-30T09:00:00.000Z] ccr: evicted ${HASH} (ttl)\n`,
    );
  });

  it('writes nothing when logging is off', () => {
    const logFile = join(tempDir(), 'off.log');
    ledger.createLogSink({ log: false, logFile })('ccr: retrieved x');
    expect(existsSync(logFile)).toBe(false);
  });

  it('contains a write failure: one warning, no throw', () => {
    const dir = tempDir();
    const warnings: string[] = [];
    const sink = ledger.createLogSink({ log: true, logFile: dir, warn: (m) => warnings.push(m) });
    expect(() => {
      sink('first');
      sink('second');
    }).not.toThrow();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(dir);
  });
});
