// The gate's fast size (a lower bound once past every limit) must never change
// a verdict against the gate's exact size, JSON.stringify(content) in UTF-8.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/adapters/dsh/config.js';
import { contentBytes, gate, gateCeiling, gateSize, plainText } from '../../src/adapters/dsh/gate.js';

const tools = ['bash', 'grep', 'glob', 'read', 'web_fetch', 'api', 'write'];

describe('gate size', () => {
  it('gives the same verdict as the exact serialized size', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({
            unit: fc.constantFrom('a', '"', '\\', '\n', '\t', '\u0001', 'é', '😀', '\ud800', '{', '}'),
            maxLength: 3000,
          }),
          { minLength: 1, maxLength: 3 },
        ),
        fc.constantFrom(...tools),
        fc.boolean(),
        fc.record({
          thresholdBytes: fc.nat(3000),
          inlineThresholdBytes: fc.nat(3000),
          autoExpand: fc.boolean(),
          autoExpandLimitBytes: fc.nat(9000),
        }),
        (texts, toolName, isError, knobs) => {
          const config = parseConfig({ ...knobs, targets: tools });
          const content = texts.map((text) => ({ type: 'text', text }));
          const text = plainText(content)!;
          const exact = gate({ toolName, isError, text, size: contentBytes(content) }, config);
          const fast = gate({ toolName, isError, text, size: gateSize(content, text, gateCeiling(config)) }, config);
          expect(fast).toEqual(exact);
        },
      ),
      { numRuns: 400 },
    );
  });
});
