// The plugin's core closes its store only after the worker thread's unanswered
// puts have run (src/adapters/dsh/core.ts): an original the harness handed over
// just before the session ended is still retrievable afterwards.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/adapters/dsh/config.js';
import { coreServices } from '../../src/adapters/dsh/core.js';
import { createStore, OFF_THREAD_MIN_CHARS, originalId } from '../../src/store/index.js';

const bigLog = Array.from({ length: Math.ceil(OFF_THREAD_MIN_CHARS / 24) }, (_, i) => `step ${i} of a long build`).join(
  '\n',
);

describe('plugin core close', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('lets a big put that is still on the worker land before the store closes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'squeeze-core-close-'));
    dirs.push(dir);
    const services = coreServices(parseConfig({}), {
      ttlSeconds: 3600,
      storeBudgetBytes: 64 << 20,
      store: dir,
      onEvent: () => {},
      warn: () => {},
    });
    // Not awaited: the session ends while the worker holds the put.
    const pending = Promise.resolve(services.store.put(bigLog, { type: 'terminal' }));
    await services.close();
    const stored = await pending;
    expect(stored.id).toBe(originalId(bigLog));
    const reopened = createStore({ dir });
    const back = reopened.get(stored.id);
    expect(back.found && back.entry.text === bigLog).toBe(true);
    reopened.close();
  });
});
