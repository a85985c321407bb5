// The plugin's spill copies: one rule for what is saved, one record of what was
// written, shared by the listener and the context engine, so reading back any
// copy the plugin wrote (the engine's too) is never compressed again.
import type { ToolExecution } from '@deepseek-ai/dsh-tools';
import { describe, expect, it } from 'vitest';
import { type SpillStoreLike, Spills } from '../../src/adapters/dsh/spill.js';
import { LATE } from '../../src/store/index.js';

function memoryStore(): SpillStoreLike & { saved: string[] } {
  const saved: string[] = [];
  return {
    saved,
    async saveText(input) {
      const locator = `/tmp/spill/${input.source.callId}-${input.suggestedName}`;
      saved.push(locator);
      return { locator, bytes: input.content.length, retrievalHint: 'read it' };
    },
  };
}

const readOf = (path: string) => ({ name: 'read', arguments: { file_path: path } }) as unknown as ToolExecution;

describe('spill copies', () => {
  it('a saved copy is recognised when a later call reads it back, whoever saved it', async () => {
    const store = memoryStore();
    const spills = new Spills(
      () => store,
      () => {},
    );
    const listenerCopy = await spills.save({ toolName: 'bash', callId: 'c1', sessionId: 's' }, 'output');
    const engineCopy = await spills.save({ toolName: 'grep', callId: 'c2', sessionId: 's' }, 'matches');
    expect(listenerCopy).toEqual({ locator: '/tmp/spill/c1-bash.txt', hint: 'read it' });
    for (const copy of [listenerCopy, engineCopy]) {
      if (typeof copy !== 'object') throw new Error('the memory store answers at once');
      expect(spills.readsCopy(readOf(copy.locator))).toBe(true);
    }
    expect(spills.readsCopy(readOf('/tmp/spill/other.txt'))).toBe(false);
  });

  it('never saves a read, nor without a store or a session; a failed save warns and resolves to nothing', async () => {
    const store = memoryStore();
    const warnings: string[] = [];
    const spills = new Spills(
      () => store,
      (m) => warnings.push(m),
    );
    expect(spills.save({ toolName: 'read', callId: 'c', sessionId: 's' }, 'x')).toBeUndefined();
    expect(spills.save({ toolName: 'bash', callId: 'c', sessionId: undefined }, 'x')).toBeUndefined();
    expect(
      new Spills(
        () => undefined,
        () => {},
      ).save({ toolName: 'bash', callId: 'c', sessionId: 's' }, 'x'),
    ).toBeUndefined();
    expect(store.saved).toEqual([]);
    const failing = new Spills(
      () => ({ saveText: () => Promise.reject(new Error('disk full')) }),
      (m) => warnings.push(m),
    );
    await expect(failing.save({ toolName: 'bash', callId: 'c', sessionId: 's' }, 'x')).resolves.toBeUndefined();
    expect(warnings).toEqual(['squeeze: spill store could not save bash (Error: disk full)']);
  });

  it('a spill store that never settles does not hold the call: past the deadline the save resolves to LATE and warns', async () => {
    const warnings: string[] = [];
    const silent: SpillStoreLike = { saveText: () => new Promise(() => {}) };
    const spills = new Spills(
      () => silent,
      (message) => warnings.push(message),
      50,
    );
    await expect(spills.save({ toolName: 'bash', callId: 'c9', sessionId: 's' }, 'output')).resolves.toBe(LATE);
    expect(warnings).toEqual(['squeeze: spill store did not answer within 50 ms saving bash']);
  });
});
