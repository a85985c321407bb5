// The CCR store on Redis, for fleets whose harness hosts share retention,
// through node-redis (the client Redis maintains). The same contract as the
// SQLite store, asynchronous. Each original is a hash `<prefix>o:<id>` with a
// native TTL (PEXPIRE); a sorted set by last use gives the LRU, another by
// expiry finds what Redis let lapse, and a counter holds the bytes stored. A
// put or get is one Lua script, so the budget holds atomically across every
// host. One Redis (or a primary with replicas), not a cluster: the scripts
// touch keys they discover.
import type { RedisClientType } from 'redis';
import { StoreError, StoreUnavailableError } from './errors.js';
import { bytesId, isOriginalId, isWellFormed } from './id.js';
import type { StoreEvent } from './store.js';
import { DEFAULT_STORE_BUDGET_BYTES, DEFAULT_TTL_SECONDS } from './store.js';
import type { AsyncOriginalStore, Lookup, PutMeta, Stored } from './types.js';
import { LATE, within } from './deadline.js';

export interface RedisStoreOptions {
  readonly url: string;
  readonly storeBudgetBytes?: number;
  readonly ttlSeconds?: number;
  /** Key prefix, so several stores can share one Redis. Default 'squeeze:'. */
  readonly prefix?: string;
  /** How long one put or get may wait for Redis before it fails as unreachable. Default 5000. */
  readonly timeoutMs?: number;
  readonly onEvent?: (event: StoreEvent) => void;
  readonly warn?: (message: string) => void;
}

/** Longest wait for a graceful close (a healthy server answers QUIT in milliseconds). */
const CLOSE_MS = 1000;

let redisModule: Promise<typeof import('redis')> | undefined;

/** How long an expired id is remembered as "expired" rather than "unknown". */
const EXPIRED_MEMORY_SECONDS = 86_400;

// KEYS: none (all keys derive from the prefix). ARGV: prefix, now (ms), expired memory (s).
// Reaps what lapsed: entries whose expiry passed leave the LRU and the byte count
// (and `drop`, defined here, serves the scripts that include this prefix).
const REAP = `
local p, now, memory = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
-- Removes an entry from the originals, the TTL and LRU sets and the byte count.
local function drop(id)
  local size = tonumber(redis.call('HGET', p .. 'sizes', id) or '0')
  redis.call('DEL', p .. 'o:' .. id)
  redis.call('ZREM', p .. 'ttl', id)
  redis.call('ZREM', p .. 'lru', id)
  redis.call('HDEL', p .. 'sizes', id)
  redis.call('DECRBY', p .. 'bytes', size)
end
local gone = {}
for _, id in ipairs(redis.call('ZRANGE', p .. 'ttl', '-inf', now, 'BYSCORE')) do
  drop(id)
  redis.call('SET', p .. 'x:' .. id, '1', 'EX', memory)
  gone[#gone + 1] = id
end
`;

// ARGV: prefix, now, memory, id, type, size, ttl ms, budget, body.
// Returns { reaped ids..., '|', evicted ids... }.
const PUT = `${REAP}
local id, kind, size, ttl, budget = ARGV[4], ARGV[5], tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8])
local key = p .. 'o:' .. id
local clock = redis.call('INCR', p .. 'clock')
if redis.call('EXISTS', key) == 1 then
  redis.call('HSET', key, 'type', kind)
else
  redis.call('HSET', key, 'type', kind, 'created', now, 'body', ARGV[9])
  redis.call('HSET', p .. 'sizes', id, size)
  redis.call('INCRBY', p .. 'bytes', size)
  redis.call('DEL', p .. 'x:' .. id)
end
redis.call('PEXPIRE', key, ttl)
redis.call('ZADD', p .. 'ttl', now + ttl, id)
redis.call('ZADD', p .. 'lru', clock, id)
gone[#gone + 1] = '|'
while tonumber(redis.call('GET', p .. 'bytes') or '0') > budget do
  local oldest = redis.call('ZRANGE', p .. 'lru', 0, 1)
  local victim = oldest[1]
  if victim == id then victim = oldest[2] end
  if not victim then break end
  drop(victim)
  gone[#gone + 1] = victim
end
return gone
`;

// ARGV: prefix, now, memory, id. Returns { reaped ids..., '|', found ('1'|'expired'|'unknown'), type, created, ttlAt, body }.
const GET = `${REAP}
local id = ARGV[4]
local key = p .. 'o:' .. id
gone[#gone + 1] = '|'
local fields = redis.call('HMGET', key, 'type', 'created', 'body')
if not fields[3] then
  gone[#gone + 1] = (redis.call('EXISTS', p .. 'x:' .. id) == 1) and 'expired' or 'unknown'
  return gone
end
redis.call('ZADD', p .. 'lru', redis.call('INCR', p .. 'clock'), id)
gone[#gone + 1] = '1'
gone[#gone + 1] = fields[1]
gone[#gone + 1] = fields[2]
gone[#gone + 1] = tostring(redis.call('ZSCORE', p .. 'ttl', id))
gone[#gone + 1] = fields[3]
return gone
`;

export class RedisStore implements AsyncOriginalStore {
  readonly budgetBytes: number;
  readonly ttlSeconds: number;
  private readonly prefix: string;
  private readonly timeoutMs: number;
  /** The client being connected or connected: close() drops it when a graceful close does not settle. */
  private socket: RedisClientType | undefined;
  private readonly onEvent: (event: StoreEvent) => void;
  private readonly warn: (message: string) => void;
  private client: Promise<RedisClientType> | undefined;
  private warned = false;

  constructor(private readonly options: RedisStoreOptions) {
    const positive = (key: string, value: number | undefined, fallback: number) => {
      if (value === undefined) return fallback;
      if (!(value > 0) || !Number.isFinite(value))
        throw new StoreError(`store option '${key}' must be a positive number, got ${JSON.stringify(value)}`);
      return value;
    };
    this.budgetBytes = positive('storeBudgetBytes', options.storeBudgetBytes, DEFAULT_STORE_BUDGET_BYTES);
    this.ttlSeconds = positive('ttlSeconds', options.ttlSeconds, DEFAULT_TTL_SECONDS);
    this.timeoutMs = positive('timeoutMs', options.timeoutMs, 5000);
    this.prefix = options.prefix ?? 'squeeze:';
    this.onEvent = options.onEvent ?? (() => {});
    this.warn = options.warn ?? (() => {});
  }

  async put(text: string | Uint8Array, meta: PutMeta): Promise<Stored> {
    // Redis scripts here move strings: exact bytes that are not UTF-8 would come back changed.
    if (text instanceof Uint8Array) throw new StoreError('Redis keeps UTF-8 text only; use a store folder for bytes');
    if (typeof text !== 'string') throw new StoreError(`can only store text, got ${typeof text}`);
    if (!isWellFormed(text)) {
      throw new StoreError('text has unpaired surrogates: its UTF-8 bytes would not give it back, so it is not stored');
    }
    const bytes = Buffer.from(text, 'utf8');
    const id = bytesId(bytes);
    const ttlMs = Math.round(this.ttlSeconds * 1000);
    const reply = await this.script('cannot store the original', PUT, [
      id,
      meta.type,
      String(bytes.length),
      String(ttlMs),
      String(this.budgetBytes),
      text,
    ]);
    const split = reply.indexOf('|');
    for (const gone of reply.slice(0, split)) this.onEvent({ kind: 'evicted', id: gone, reason: 'ttl' });
    for (const gone of reply.slice(split + 1)) this.onEvent({ kind: 'evicted', id: gone, reason: 'budget' });
    return { id, size: bytes.length };
  }

  async get(id: string): Promise<Lookup> {
    if (typeof id !== 'string' || !isOriginalId(id)) return this.miss(String(id), 'unknown');
    const reply = await this.script('cannot read the store', GET, [id]);
    const split = reply.indexOf('|');
    for (const gone of reply.slice(0, split)) this.onEvent({ kind: 'evicted', id: gone, reason: 'ttl' });
    const [found, type, created, ttlAt, text] = reply.slice(split + 1);
    if (found !== '1') return this.miss(id, found === 'expired' ? 'expired' : 'unknown');
    if (bytesId(Buffer.from(text!, 'utf8')) !== id) {
      this.warn(`squeeze store: the text under ${id} in Redis does not match its id; not served`);
      return this.miss(id, 'unknown');
    }
    this.onEvent({ kind: 'retrieved', id });
    const now = Date.now();
    return {
      found: true,
      entry: {
        id,
        type: type!,
        size: Buffer.byteLength(text!),
        text: text!,
        createdAt: Number(created),
        ttlAt: Number(ttlAt),
        lastAccessed: now,
      },
    };
  }

  async close(): Promise<void> {
    const client = this.client;
    const socket = this.socket;
    this.client = undefined;
    this.socket = undefined;
    if (client === undefined || socket === undefined) return;
    // A server that accepted the connection and never answers holds both the
    // handshake (connect sends CLIENT SETINFO and waits) and a graceful close
    // (it waits for the replies in flight) forever: wait CLOSE_MS, then drop the socket.
    const closing = client.then(
      (connected) => connected.close(),
      () => {}, // never connected: nothing to close
    );
    try {
      if ((await within(closing, Math.min(this.timeoutMs, CLOSE_MS))) === LATE) socket.destroy();
    } catch {
      // already gone: nothing to close
    }
  }

  private miss(id: string, reason: 'expired' | 'unknown'): Lookup {
    this.onEvent({ kind: 'miss', id, reason });
    return { found: false, reason };
  }

  private connect(): Promise<RedisClientType> {
    this.client ??= (async () => {
      const { createClient } = await (redisModule ??= import('redis'));
      let connected = false;
      const client = createClient({
        url: this.options.url,
        // Fail a call at once while disconnected instead of queueing it: a put must not hang a tool call.
        disableOfflineQueue: true,
        socket: {
          connectTimeout: this.timeoutMs,
          // Never connected: fail now (the next put tries again). Connected once: reconnect with backoff.
          reconnectStrategy: (retries: number, cause: Error) =>
            connected ? Math.min(100 * 2 ** retries, 5000) : cause,
        },
      }) as unknown as RedisClientType;
      this.socket = client;
      client.on('error', (error: Error) => {
        if (this.warned) return;
        this.warned = true;
        this.warn(`squeeze store: Redis ${redacted(this.options.url)}: ${error.message}`);
      });
      await client.connect();
      connected = true;
      return client;
    })().catch((error: unknown) => {
      this.client = undefined;
      this.socket = undefined;
      throw error;
    });
    return this.client;
  }

  private async script(doing: string, source: string, args: string[]): Promise<string[]> {
    // Loading the client (about 1 s cold) is not Redis being slow: the clock starts after it.
    redisModule ??= import('redis');
    await redisModule;
    try {
      const call = (async () => {
        const client = await this.connect();
        const memory = String(EXPIRED_MEMORY_SECONDS);
        return (await client.sendCommand([
          'EVAL',
          source,
          '0',
          this.prefix,
          String(Date.now()),
          memory,
          ...args,
        ])) as string[];
      })();
      const answer = await within(call, this.timeoutMs);
      if (answer === LATE) throw new Error(`no answer within ${this.timeoutMs} ms`);
      return answer;
    } catch (error) {
      throw new StoreUnavailableError(
        'unreachable',
        `${doing}: Redis ${redacted(this.options.url)}: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
}

/** The URL without its password, for messages. */
function redacted(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'redis://…';
  }
}
