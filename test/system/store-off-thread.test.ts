// Big originals stored on a worker thread (src/store/off-thread.ts): the put
// settles only once the original is committed, so this thread's connection
// finds it at once; what the worker's connection evicted is reported here;
// small originals and stores no other thread can open are stored in place.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createStore,
  OFF_THREAD_MIN_CHARS,
  OffThreadPuts,
  originalId,
  type StoreEvent,
} from '../../src/store/index.js';

const big = (seed: number) =>
  Array.from({ length: Math.ceil(OFF_THREAD_MIN_CHARS / 20) }, (_, i) => `line ${seed}.${i} of a big log`).join('\n');

describe('off-thread puts', () => {
  const dirs: string[] = [];
  const puts = new OffThreadPuts();
  afterEach(async () => {
    await puts.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('stores a big original on the worker: retrievable here as soon as the put settles, evictions reported here', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'squeeze-off-thread-'));
    dirs.push(dir);
    const events: StoreEvent[] = [];
    const first = big(1);
    // Room for one big original: the second evicts the first, on the worker's connection.
    const store = createStore({ dir, storeBudgetBytes: first.length + 1000, onEvent: (e) => events.push(e) });
    const pending = puts.put(store, first, { type: 'terminal' });
    expect(pending).toBeInstanceOf(Promise);
    const stored = await pending;
    expect(stored.id).toBe(originalId(first));
    const back = store.get(stored.id);
    expect(back.found && back.entry.text === first).toBe(true);
    const second = await puts.put(store, big(2), { type: 'terminal' });
    expect(store.get(second.id).found).toBe(true);
    expect(events).toContainEqual({ kind: 'evicted', id: stored.id, reason: 'budget' });
    store.close();
  });

  it('after close, starts a new worker: the old one exiting leaves the new one and its puts alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'squeeze-off-thread-'));
    dirs.push(dir);
    const store = createStore({ dir });
    // Its own instance: no worker closed by an earlier test is still exiting.
    const ownPuts = new OffThreadPuts();
    const texts = [big(4), big(5), big(6)];
    const first = await ownPuts.put(store, texts[0] as string, { type: 'terminal' });
    // Not awaited: the next put starts a new worker while the old one is still exiting.
    const closed = ownPuts.close();
    const second = ownPuts.put(store, texts[1] as string, { type: 'terminal' });
    expect(second).toBeInstanceOf(Promise);
    const secondStored = await second;
    await closed;
    // The old worker has exited by now: the next put still goes to the new, live worker.
    const third = ownPuts.put(store, texts[2] as string, { type: 'terminal' });
    expect(third).toBeInstanceOf(Promise);
    const ids = [first.id, secondStored.id, (await third).id];
    expect(ids).toEqual(texts.map((text) => originalId(text)));
    for (const [i, id] of ids.entries()) {
      const back = store.get(id);
      expect(back.found && back.entry.text === texts[i]).toBe(true);
    }
    await ownPuts.close();
    store.close();
  });

  it('stores small originals, and any in a store of this process memory, in place', () => {
    const dir = mkdtempSync(join(tmpdir(), 'squeeze-off-thread-'));
    dirs.push(dir);
    const file = createStore({ dir });
    const small = puts.put(file, 'a short result\n', { type: 'terminal' });
    expect(small).not.toBeInstanceOf(Promise);
    const memory = createStore();
    const text = big(3);
    const stored = puts.put(memory, text, { type: 'terminal' });
    expect(stored).not.toBeInstanceOf(Promise);
    expect(memory.get(originalId(text)).found).toBe(true);
    file.close();
    memory.close();
  });
});
