// The Redis store against a real redis-server (started here on a loopback
// port, no persistence): the contract of the SQLite store (one copy per id,
// LRU by bytes, TTL, expired vs unknown), many writer processes and SIGKILLed
// ones, the CLI's --store redis://… and the plugin's `store`, and a Redis that
// is not there.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { originalId, RedisStore, type StoreEvent } from '../../src/store/index.js';
import { runCli } from '../support/cli.js';
import { buildLog, createHarness, squeezePlugin, textOf, type Harness } from '../support/dsh-harness.js';
import { hasRedis, REDIS_SERVER, startRedis, type RedisServer } from '../support/redis-server.js';
import { checkReported, startWriter, type Writer } from '../support/store-faults.js';

const skip = !hasRedis && !process.env.CI;
if (skip)
  console.warn(`Redis store tests skipped: ${REDIS_SERVER} is missing (in CI it must run; .ci/run installs it)`);

/** A URL where nothing listens. */
const NOWHERE = 'redis://127.0.0.1:1';

describe.skipIf(skip)('Redis store', () => {
  let server: RedisServer;
  let prefixes = 0;
  const stores: RedisStore[] = [];
  const open = (options: Partial<ConstructorParameters<typeof RedisStore>[0]> = {}) => {
    const store = new RedisStore({ url: server.url, prefix: `t${++prefixes}:`, ...options });
    stores.push(store);
    return store;
  };
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    for (const store of stores) await store.close();
    await server?.stop();
  });

  it('gives back the exact text by exact id, and stores a repeated text once', async () => {
    const store = open();
    const text = 'naïve — 日本語 🚀\r\nline two\n';
    const { id, size } = await store.put(text, { type: 'terminal' });
    expect(id).toBe(originalId(text));
    expect(size).toBe(Buffer.byteLength(text));
    const again = await store.put(text, { type: 'file' });
    expect(again.id).toBe(id);
    const hit = await store.get(id);
    expect(hit.found && hit.entry.text).toBe(text);
    expect(hit.found && hit.entry.type).toBe('file');
    expect(await store.get(id.slice(0, 23))).toEqual({ found: false, reason: 'unknown' });
  });

  it('evicts the least recently used by bytes, never the newest, and says which', async () => {
    const events: StoreEvent[] = [];
    const store = open({ storeBudgetBytes: 20, onEvent: (e) => events.push(e) });
    const a = await store.put('aaaaaaaa', { type: 'default' });
    const b = await store.put('bbbbbbbb', { type: 'default' });
    expect((await store.get(a.id)).found).toBe(true);
    const c = await store.put('cccccccc', { type: 'default' });
    expect(events).toContainEqual({ kind: 'evicted', id: b.id, reason: 'budget' });
    expect(await store.get(b.id)).toEqual({ found: false, reason: 'unknown' });
    expect((await store.get(a.id)).found).toBe(true);
    expect((await store.get(c.id)).found).toBe(true);
    const big = await store.put('x'.repeat(50), { type: 'default' });
    expect((await store.get(big.id)).found).toBe(true);
  });

  it('expires by TTL: an expired id says expired, distinct from unknown, and a re-store finds it again', async () => {
    const events: StoreEvent[] = [];
    const store = open({ ttlSeconds: 0.2, onEvent: (e) => events.push(e) });
    const { id } = await store.put('short-lived', { type: 'default' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await store.get(id)).toEqual({ found: false, reason: 'expired' });
    expect(events).toContainEqual({ kind: 'evicted', id, reason: 'ttl' });
    await store.put('short-lived', { type: 'default' });
    expect((await store.get(id)).found).toBe(true);
  });

  it('8 writer processes x 40 puts (20% shared): 0 lost, 0 corrupt', async () => {
    const running = Array.from({ length: 8 }, (_, w) => startWriter(server.url, w, 40));
    const codes = await Promise.all(running.map((w) => w.exited));
    expect(codes, running.map((w) => w.stderr()).join('\n')).toEqual(running.map(() => 0));
    const done = running.flatMap((w) => w.done);
    expect(done).toHaveLength(320);
    const result = await checkReported(server.url, done);
    expect(result.lost).toEqual([]);
    expect(result.corrupt).toEqual([]);
  });

  it('SIGKILL x 5 mid-put: every reported id retrieves, nothing is corrupt', async () => {
    const killed: Array<[string, string]> = [];
    for (let round = 0; round < 5; round++) {
      const killAfter = Math.floor(Math.random() * 4);
      const victim = startWriter(server.url, 300 + round, 0, 2_000_000, (w: Writer) => {
        if (w.done.length >= killAfter && !w.child.killed)
          setTimeout(() => w.child.kill('SIGKILL'), Math.random() * 20);
      });
      expect(await victim.exited).toBeNull();
      killed.push(...victim.done);
    }
    const result = await checkReported(server.url, killed, 2_000_000);
    expect(result.lost).toEqual([]);
    expect(result.corrupt).toEqual([]);
  });

  it('the CLI: compress --store redis://… prints an id that retrieve gives back; an unreachable Redis exits 6 and claims nothing', async () => {
    const log = buildLog(2000, 7);
    const compressed = await runCli(['compress', '--json', '--tool', 'bash', '--store', server.url], { stdin: log });
    expect(compressed.code).toBe(0);
    const json = JSON.parse(compressed.stdout.toString('utf8'));
    expect(json.stored).toBe(true);
    expect(json.output).toContain(`<<<CCR:${json.id}|`);
    const back = await runCli(['retrieve', json.id, '--store', server.url]);
    expect(back.code).toBe(0);
    expect(back.stdout.toString('utf8')).toBe(log);

    const down = await runCli(['compress', '--json', '--tool', 'bash', '--store', NOWHERE], { stdin: log });
    expect(down.code).toBe(6);
    const downJson = JSON.parse(down.stdout.toString('utf8'));
    expect(downJson.stored).toBe(false);
    expect(downJson.id).toBeNull();
    expect(downJson.output).toBe(log);
    expect(downJson.storeError).toMatch(/Redis redis:\/\/127\.0\.0\.1:1.*ECONNREFUSED/);
    const missing = await runCli(['retrieve', json.id, '--store', NOWHERE]);
    expect(missing.code).toBe(6);
  });

  describe('through the real harness', () => {
    let h: Harness | undefined;
    afterEach(() => h?.close());

    it("`store: 'redis://…'`: compressed with an id that ccr_retrieve and the CLI give back", async () => {
      h = await createHarness();
      await h.ctx.plugin(squeezePlugin(), { logFile: '', store: server.url });
      const text = buildLog(600, 11);
      h.tool('bash', text);
      const result = textOf(await h.call('bash'));
      expect(result).toContain(`<<<CCR:${originalId(text)}|`);
      expect(textOf(await h.call('ccr_retrieve', { hash: originalId(text) }))).toBe(text);
      expect((await runCli(['retrieve', originalId(text), '--store', server.url])).stdout.toString('utf8')).toBe(text);
    });

    it('an unreachable Redis: the tool call stays successful and passes through whole', async () => {
      h = await createHarness();
      await h.ctx.plugin(squeezePlugin(), { logFile: '', store: NOWHERE });
      const text = buildLog(600, 12);
      h.tool('bash', text);
      const result = await h.call('bash');
      expect(result.isError).toBe(false);
      expect(textOf(result)).toBe(text);
      expect(h.messages('warn').some((m) => m.includes('could not store the original of bash'))).toBe(true);
    });
  });
});
