// compressAsync on a worker thread: the worker compresses and writes the
// notice with the id every store gives, this thread stores the original under
// it. The result is compress()'s, and the ceiling (maxTokens) holds for what
// the reader sees, notice included.
import { describe, expect, it } from 'vitest';
import { createSqueeze } from '../../src/pipeline/index.js';
import { workerPool } from '../../src/pipeline/pool.js';

describe('compressAsync on a worker, with retainOriginal', () => {
  const lines = Array.from(
    { length: 4000 },
    (_, i) => `src/module${i}.ts:${i + 1}:  const value${i} = compute(${i}); // a long enough line of grep output`,
  );
  const text = `${lines.join('\n')}\n`;

  for (const maxTokens of [600, 2000]) {
    it(`keeps the notice under maxTokens ${maxTokens}, as compress does`, async () => {
      const spill = {
        locator: `/tmp/${'s'.repeat(80)}/grep.txt`,
        hint: 'Use read with offset/limit, or grep this path to search within it.',
      };
      const options = {
        maxTokens,
        targetTokens: Math.min(1000, maxTokens),
        workerMinChars: 1,
        retrieval: { tool: 'ccr_retrieve', cli: {} },
      };
      const onWorker = await createSqueeze(options).compressAsync(text, { toolName: 'grep', spill });
      const here = createSqueeze(options).compress(text, { toolName: 'grep', spill });
      expect(onWorker.outcome).toBe('compressed');
      expect(onWorker.id).not.toBeNull();
      expect(onWorker.output).toContain(`<<<CCR:${onWorker.id}|`);
      expect(onWorker.output).toContain('[also saved: ');
      expect(onWorker.tokensOut).toBeLessThanOrEqual(maxTokens);
      expect(here.tokensOut).toBeLessThanOrEqual(maxTokens);
      expect(onWorker.output.endsWith('\n')).toBe(true);
      expect(onWorker.output).toContain('[original: ccr_retrieve {"hash":');
      expect(onWorker.output).toBe(here.output);
    });
  }

  it('reports a store that fails as compress does, as a result, never a rejection', async () => {
    const store = {
      put: () => {
        throw new Error('disk full');
      },
      get: () => ({ found: false as const, reason: 'unknown' as const }),
    };
    const options = { workerMinChars: 1, store, recentResults: 0 };
    const onWorker = await createSqueeze(options).compressAsync(text, { toolName: 'grep' });
    const here = createSqueeze(options).compress(text, { toolName: 'grep' });
    expect(here.outcome).toBe('failed');
    expect(onWorker.outcome).toBe(here.outcome);
    expect(onWorker.output).toBe(text);
  });

  it('references blocks of recent results exactly as compress does: the worker is handed what its caller remembers', async () => {
    // Names, not numbers: lines differing only in a counter would fold into one shape (shapes.ts).
    const names = [
      'alpha',
      'bravo',
      'charlie',
      'delta',
      'echo',
      'foxtrot',
      'golf',
      'hotel',
      'india',
      'juliet',
      'kilo',
      'lima',
    ];
    const config = names.map((name) => `config ${name}: resolved plugin-${name} from ./plugins/${name}/index.js`);
    const first = `${config.join('\n')}\n`;
    const build = Array.from({ length: 3000 }, (_, i) => `[build] compiling unit ${i} of 3000 (${(i * 7) % 101} ms)`);
    const second = `${[...config, ...build, 'error: unit 2999 failed to link'].join('\n')}\n`;
    const options = { workerMinChars: 1, minTokens: 1 };
    const here = createSqueeze(options);
    const onWorker = createSqueeze(options);
    here.compress(first, { toolName: 'bash' });
    await onWorker.compressAsync(first, { toolName: 'bash' });
    const expected = here.compress(second, { toolName: 'bash' });
    const pool = await workerPool();
    const done = pool!.completed;
    const got = await onWorker.compressAsync(second, { toolName: 'bash' });
    // It ran on the worker (compressAsync falls back to this thread when a worker fails).
    expect(pool!.completed).toBe(done + 1);
    expect(expected.output).toContain('repeated verbatim from an earlier tool result');
    expect(got.output).toBe(expected.output);
  });

  it('by default names no way back but the marker; every compressed output ends with a line break', () => {
    const plain = createSqueeze().compress(text, { toolName: 'grep' });
    expect(plain.outcome).toBe('compressed');
    const last = plain.output.replace(/\n$/, '').split('\n').at(-1);
    expect(last).toBe(`<<<CCR:${plain.id}|grep|${Buffer.byteLength(text)}>>>`);
    expect(plain.output.endsWith('\n')).toBe(true);
    const kept = createSqueeze({ retainOriginal: false }).compress(text, { toolName: 'grep' });
    expect(kept.outcome).toBe('compressed');
    expect(kept.output).not.toContain('<<<CCR:');
    expect(kept.output.endsWith('\n')).toBe(true);
  });
});
