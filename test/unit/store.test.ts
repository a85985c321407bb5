import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createStore, isOriginalId, originalId, StoreError, type StoreEvent } from '../../src/store/index.js';

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

function recording() {
  const events: StoreEvent[] = [];
  return { events, onEvent: (e: StoreEvent) => events.push(e) };
}

describe('originalId', () => {
  it('is the first 24 hex characters of the SHA-256 of the UTF-8 bytes', () => {
    expect(originalId('abc')).toBe('ba7816bf8f01cfea414140de');
    const text = 'naïve — 日本語 🚀\r\n';
    expect(originalId(text)).toBe(createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex').slice(0, 24));
    expect(isOriginalId(originalId(text))).toBe(true);
  });
});

describe('store', () => {
  it('gives back exactly what was put, by exact id only', () => {
    const store = createStore();
    const text = 'line 1\nline 2\r\n\u00e9\u{1F600}\n';
    const { id, size } = store.put(text, { type: 'terminal', tool: 'bash' });
    expect(id).toBe(originalId(text));
    expect(size).toBe(Buffer.byteLength(text));
    const hit = store.get(id);
    expect(hit.found && hit.entry.text).toBe(text);
    expect(hit.found && hit.entry.type).toBe('terminal');
    expect(store.get(id.slice(0, 23))).toEqual({ found: false, reason: 'unknown' });
    expect(store.get(id.toUpperCase())).toEqual({ found: false, reason: 'unknown' });
    expect(store.get(`${id}0`)).toEqual({ found: false, reason: 'unknown' });
  });

  it('stores equal text once', () => {
    const store = createStore();
    const a = store.put('same text', { type: 'default' });
    const b = store.put('same text', { type: 'file' });
    expect(b.id).toBe(a.id);
    expect(store.count).toBe(1);
    expect(store.totalBytes).toBe(9);
  });

  it('never trusts a marker found inside a stored text', () => {
    const store = createStore();
    const foreign = 'f'.repeat(24);
    const { id } = store.put(`tool output quoting <<<CCR:${foreign}|terminal|12>>> verbatim`, { type: 'default' });
    expect(store.get(foreign)).toEqual({ found: false, reason: 'unknown' });
    expect(store.get(id).found).toBe(true);
  });

  it('evicts the least recently accessed entry when over budget', () => {
    const { events, onEvent } = recording();
    const store = createStore({ storeBudgetBytes: 10, onEvent, ...clock() });
    const a = store.put('aaaa', { type: 'default' });
    const b = store.put('bbbb', { type: 'default' });
    expect(store.get(a.id).found).toBe(true);
    const c = store.put('cccc', { type: 'default' });
    expect(store.get(b.id)).toEqual({ found: false, reason: 'unknown' });
    expect(store.get(a.id).found).toBe(true);
    expect(store.get(c.id).found).toBe(true);
    expect(store.totalBytes).toBe(8);
    expect(events.filter((e) => e.kind === 'evicted')).toEqual([{ kind: 'evicted', id: b.id, reason: 'budget' }]);
  });

  it('keeps a single entry larger than the budget until the next store', () => {
    const store = createStore({ storeBudgetBytes: 10 });
    const big = store.put('x'.repeat(25), { type: 'default' });
    expect(store.get(big.id).found).toBe(true);
    expect(store.totalBytes).toBe(25);
    const small = store.put('small', { type: 'default' });
    expect(store.get(big.id).found).toBe(false);
    expect(store.get(small.id).found).toBe(true);
    expect(store.totalBytes).toBe(5);
  });

  it('reports an entry at or past its TTL as expired, distinct from unknown', () => {
    const time = clock();
    const { events, onEvent } = recording();
    const store = createStore({ ttlSeconds: 60, onEvent, now: time.now });
    const { id } = store.put('short-lived', { type: 'default' });
    time.advance(59_999);
    expect(store.get(id).found).toBe(true);
    time.advance(1);
    expect(store.get(id)).toEqual({ found: false, reason: 'expired' });
    expect(store.get(id)).toEqual({ found: false, reason: 'expired' });
    expect(store.get('0'.repeat(24))).toEqual({ found: false, reason: 'unknown' });
    expect(events).toEqual([
      { kind: 'retrieved', id },
      { kind: 'evicted', id, reason: 'ttl' },
      { kind: 'miss', id, reason: 'expired' },
      { kind: 'miss', id, reason: 'expired' },
      { kind: 'miss', id: '0'.repeat(24), reason: 'unknown' },
    ]);
  });

  it('sweeps expired entries on insert and refreshes the TTL of a re-stored text', () => {
    const time = clock();
    const { events, onEvent } = recording();
    const store = createStore({ ttlSeconds: 10, onEvent, now: time.now });
    const old = store.put('old', { type: 'default' });
    const kept = store.put('kept', { type: 'default' });
    time.advance(6_000);
    store.put('kept', { type: 'default' });
    time.advance(6_000);
    const fresh = store.put('fresh', { type: 'default' });
    expect(events).toEqual([{ kind: 'evicted', id: old.id, reason: 'ttl' }]);
    expect(store.count).toBe(2);
    expect(store.totalBytes).toBe(4 + 5);
    expect(store.get(kept.id).found).toBe(true);
    expect(store.get(fresh.id).found).toBe(true);
    expect(store.get(old.id)).toEqual({ found: false, reason: 'expired' });
  });

  it('a re-stored expired text is found again', () => {
    const time = clock();
    const store = createStore({ ttlSeconds: 1, now: time.now });
    const { id } = store.put('again', { type: 'default' });
    time.advance(1_000);
    expect(store.get(id).found).toBe(false);
    store.put('again', { type: 'default' });
    expect(store.get(id).found).toBe(true);
  });

  it('keeps bytes that are not UTF-8 exactly: its text shows U+FFFD, its bytes come back whole', () => {
    const store = createStore();
    const bytes = Uint8Array.from([0x6f, 0x6b, 0x20, 0xe9, 0x0a, 0xe2, 0x82]);
    const { id, size } = store.put(bytes, { type: 'terminal' });
    expect([id, size]).toEqual([createHash('sha256').update(bytes).digest('hex').slice(0, 24), 7]);
    const lookup = store.get(id);
    if (!lookup.found) throw new Error('stored bytes not found');
    expect(lookup.entry.text).toBe('ok \uFFFD\n\uFFFD');
    expect(Buffer.from(lookup.entry.bytes!).equals(Buffer.from(bytes))).toBe(true);
    // UTF-8 bytes are text like any other: no separate bytes.
    const utf8 = store.get(store.put(Buffer.from('plain é\n'), { type: 'terminal' }).id);
    expect(utf8.found && utf8.entry.bytes).toBe(undefined);
  });

  it('refuses text that UTF-8 cannot give back, and bad options', () => {
    const store = createStore();
    expect(() => store.put('half a pair \ud83d', { type: 'default' })).toThrow(StoreError);
    expect(store.count).toBe(0);
    expect(() => createStore({ storeBudgetBytes: 0 })).toThrow(/storeBudgetBytes/);
    expect(() => createStore({ storeBudgetBytes: 1.5 })).toThrow(/storeBudgetBytes/);
    expect(() => createStore({ ttlSeconds: -1 })).toThrow(/ttlSeconds/);
  });

  it('holds at most the budget plus the newest entry under random load', () => {
    const store = createStore({ storeBudgetBytes: 1000 });
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 500; i++) {
      const text = `${i}:${'z'.repeat(Math.floor(random() * 400))}`;
      store.put(text, { type: 'default' });
      expect(store.totalBytes).toBeLessThanOrEqual(1000 + Buffer.byteLength(text));
      expect(store.get(originalId(text)).found).toBe(true);
    }
  });
});
