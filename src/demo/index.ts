// `squeeze demo` (and `npm start`): compresses the project's own sample CI run
// and shows before and after, token counts, and what was kept and cut.
import { createSqueeze } from '../pipeline/index.js';
import { createStore } from '../store/store.js';
import { count } from '../text/strings.js';
import { demoSample } from './sample.js';

/** The lines of the sample a reader must not lose, checked against the output. */
const EVIDENCE = [
  'GHSA-8cf7-32gw-wr33',
  'src/billing/invoice.ts:88:17 - error TS2345',
  'src/cart/cart.service.test.ts > cart service > applies the discount before tax',
  'AssertionError: expected 107.99 to be 98.99',
  'Test timed out in 5000ms.',
  'Tests  2 failed | 598 passed (600)',
  'TODO(ops): rotate the staging JWT signing key before Friday (owner: @mira)',
];

export function runDemo(): string {
  const sample = demoSample();
  // The notice as a DSH model reads it: ccr_retrieve is the way back there.
  const squeeze = createSqueeze({ store: createStore(), retrieval: { tool: 'ccr_retrieve' } });
  const result = squeeze.compress(sample, { toolName: 'bash' });
  const kept = EVIDENCE.map((needle) => `  ${result.output.includes(needle) ? 'kept' : 'LOST'}  ${needle}`);
  const lines = sample.split('\n').length - 1;
  return [
    `squeeze demo: a CI run of ${count(lines)} lines (install, audit, build, 600 tests, service log)`,
    '',
    `before: ${count(result.bytesIn)} bytes, about ${count(result.tokensIn)} tokens`,
    `after:  ${count(result.bytesOut)} bytes, about ${count(result.tokensOut)} tokens ` +
      `(${((100 * (result.tokensIn - result.tokensOut)) / result.tokensIn).toFixed(1)}% fewer; ` +
      `${result.kind} processor, ${result.level} level, ${result.backend} backend, ${result.ms.toFixed(1)} ms)`,
    '',
    'evidence a reader needs:',
    ...kept,
    '',
    'omitted, by kind:',
    ...Object.entries(result.omitted).map(([what, n]) => `  ${count(n)} ${what}`),
    '',
    '----- what the model sees -----',
    result.output.replace(/\n$/, ''),
    '----- end -----',
    '',
    `The original stays retrievable by id ${result.id} (in this demo's in-memory store).`,
  ].join('\n');
}
