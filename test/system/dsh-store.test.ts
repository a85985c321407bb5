// The smoke items that need the real CCR store behind the plugin: TTL
// and budget eviction with their ledger lines, the store shared with the CLI
// and with a later plugin instance, and expiry while no plugin ran.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../support/cli.js';
import { buildLog, createHarness, squeezePlugin, textOf, type Harness } from '../support/dsh-harness.js';

const id24 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 24);

let h: Harness | undefined;
afterEach(() => {
  vi.useRealTimers();
  h?.close();
});

const ledger = (harness: Harness) => harness.messages('info').filter((m) => m.startsWith('ccr: '));

describe('plugin smoke: the store behind the plugin', () => {
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

  it('one store for the plugin and the CLI: a new plugin instance and `squeeze retrieve` give the original back', async () => {
    h = await createHarness();
    const original = buildLog(600);
    h.tool('bash', original);
    const fiber = await h.ctx.plugin(squeezePlugin(), { logFile: '' });
    const compressed = textOf(await h.call('bash'));
    expect(compressed).toContain(`<<<CCR:${id24(original)}|`);
    await fiber.dispose();
    await h.ctx.plugin(squeezePlugin(), { logFile: '' });
    expect(textOf(await h.call('ccr_retrieve', { hash: id24(original) }))).toBe(original);
    // The plugin's default store is the CLI's: $XDG_CACHE_HOME/squeeze.
    const cli = await runCli(['retrieve', id24(original)], { env: { XDG_CACHE_HOME: join(h.dir, 'cache') } });
    expect(cli.code).toBe(0);
    expect(cli.stdout.toString('utf8')).toBe(original);
  });

  it('the store is opened at the first original kept, not when the plugin loads', async () => {
    h = await createHarness();
    const database = join(h.dir, 'cache', 'squeeze', 'originals.sqlite');
    await h.ctx.plugin(squeezePlugin(), { logFile: '' });
    let result = 'a short result';
    h.tool('bash', () => [{ type: 'text', text: result }]);
    expect(textOf(await h.call('bash'))).toBe(result);
    expect(existsSync(database)).toBe(false);
    result = buildLog(600);
    expect(textOf(await h.call('bash'))).toMatch(/<<<CCR:/);
    expect(existsSync(database)).toBe(true);
  });

  it('an original that expired while no plugin ran is reported expired by the next one', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-30T10:00:00Z'));
    h = await createHarness();
    const store = join(h.dir, 'own-store');
    const original = buildLog(600);
    h.tool('bash', original);
    const writer = await h.ctx.plugin(squeezePlugin(), { logFile: '', store, ttlSeconds: 60 });
    await h.call('bash');
    await writer.dispose();
    vi.setSystemTime(new Date('2026-11-30T11:00:00Z'));
    const before = ledger(h).length;
    await h.ctx.plugin(squeezePlugin(), { logFile: '', store, ttlSeconds: 60 });
    const miss = await h.call('ccr_retrieve', { hash: id24(original) });
    expect(miss.isError).toBe(true);
    expect(textOf(miss)).toMatch(/expired/);
    expect(ledger(h).slice(before + 1)).toEqual([
      `ccr: evicted ${id24(original)} (ttl)`,
      `ccr: retrieval miss ${id24(original)} (expired)`,
    ]);
  });
});
