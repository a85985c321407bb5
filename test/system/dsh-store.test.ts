// Seed 002's smoke items that need the real CCR store behind the plugin: TTL
// and budget eviction with their ledger lines, and the journal round trip with
// the boot-compaction edges (empty, all-expired and missing files).
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildLog, createHarness, squeezePlugin, textOf, type Harness } from '../support/dsh-harness.js';

const id24 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 24);

let h: Harness | undefined;
afterEach(() => {
  vi.useRealTimers();
  h?.close();
});

const ledger = (harness: Harness) => harness.messages('info').filter((m) => m.startsWith('ccr: '));

describe('seed 002 smoke: the store behind the plugin', () => {
  it('TTL eviction: evicted (ttl) on the next store, then a retrieval miss (expired)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-30T10:00:00Z'));
    h = await createHarness();
    await h.ctx.plugin(squeezePlugin(), { logFile: '', ttlSeconds: 60 });
    const first = buildLog(600, 1);
    const second = buildLog(600, 2);
    let next = first;
    h.tool('bash', () => [{ type: 'text', text: next }]);
    await h.call('bash');
    vi.setSystemTime(new Date('2026-11-30T10:01:01Z'));
    next = second;
    await h.call('bash');
    const miss = await h.call('ccr_retrieve', { hash: id24(first) });
    expect(miss.isError).toBe(true);
    expect(textOf(miss)).toMatch(/expired/);
    expect(ledger(h).slice(1)).toEqual([
      `ccr: compressed bash terminal ${Buffer.byteLength(first)} -> ${id24(first)}`,
      `ccr: evicted ${id24(first)} (ttl)`,
      `ccr: compressed bash terminal ${Buffer.byteLength(second)} -> ${id24(second)}`,
      `ccr: retrieval miss ${id24(first)} (expired)`,
    ]);
  });

  it('budget eviction: the least recently used goes, the newest always stays', async () => {
    h = await createHarness();
    const first = buildLog(600, 1);
    const second = buildLog(600, 2);
    await h.ctx.plugin(squeezePlugin(), { logFile: '', storeBudgetBytes: Buffer.byteLength(first) + 1000 });
    let next = first;
    h.tool('bash', () => [{ type: 'text', text: next }]);
    await h.call('bash');
    next = second;
    await h.call('bash');
    expect(ledger(h)).toContain(`ccr: evicted ${id24(first)} (budget)`);
    expect((await h.call('ccr_retrieve', { hash: id24(first) })).isError).toBe(true);
    expect(textOf(await h.call('ccr_retrieve', { hash: id24(second) }))).toBe(second);
  });

  it('journal round trip: a new plugin instance on the same journal gives the original back', async () => {
    h = await createHarness();
    const journalPath = join(h.dir, 'journal', 'ccr.jsonl');
    const original = buildLog(600);
    h.tool('bash', original);
    const fiber = await h.ctx.plugin(squeezePlugin(), { logFile: '', journalPath });
    await h.call('bash');
    await fiber.dispose();
    await h.ctx.plugin(squeezePlugin(), { logFile: '', journalPath });
    expect(textOf(await h.call('ccr_retrieve', { hash: id24(original) }))).toBe(original);
  });

  it('journal edges: empty and missing files load clean; an all-expired file restores nothing', async () => {
    h = await createHarness();
    const empty = join(h.dir, 'empty.jsonl');
    writeFileSync(empty, '');
    const missing = join(h.dir, 'nested', 'missing.jsonl');
    for (const journalPath of [empty, missing]) {
      const fiber = await h.ctx.plugin(squeezePlugin(), { logFile: '', journalPath });
      expect((await h.call('ccr_retrieve', { hash: 'a'.repeat(24) })).isError).toBe(true);
      await fiber.dispose();
    }
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-30T10:00:00Z'));
    const expiring = join(h.dir, 'expiring.jsonl');
    const original = buildLog(600);
    h.tool('bash', original);
    const writer = await h.ctx.plugin(squeezePlugin(), { logFile: '', journalPath: expiring, ttlSeconds: 60 });
    await h.call('bash');
    await writer.dispose();
    vi.setSystemTime(new Date('2026-11-30T11:00:00Z'));
    const before = ledger(h).length;
    await h.ctx.plugin(squeezePlugin(), { logFile: '', journalPath: expiring, ttlSeconds: 60 });
    expect(ledger(h).slice(before)[0]).toBe(`ccr: evicted ${id24(original)} (ttl)`);
    const miss = await h.call('ccr_retrieve', { hash: id24(original) });
    expect(miss.isError).toBe(true);
    expect(textOf(miss)).toMatch(/expired/);
  });
});
