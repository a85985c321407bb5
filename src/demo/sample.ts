// The demo's sample: a CI run of a made-up TypeScript service (install, audit,
// build, 600 tests with two failures, a flaky retry storm in the service log),
// generated deterministically by the project so `squeeze demo` needs no files.

/** A small deterministic generator (LCG) so the sample is byte-identical on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const MODULES = [
  'auth',
  'billing',
  'cart',
  'catalog',
  'checkout',
  'inventory',
  'orders',
  'search',
  'shipping',
  'users',
];

export function demoSample(): string {
  const next = random(20261130);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const out: string[] = [];
  const time = (s: number) =>
    `2026-11-30T09:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}.${String(Math.floor(next() * 1000)).padStart(3, '0')}Z`;
  out.push('$ npm ci', 'npm WARN deprecated inflight@1.0.6: This module is not supported, and leaks memory.');
  out.push('added 812 packages, and audited 813 packages in 14s', '');
  out.push('$ npm audit --omit=dev', '# npm audit report', '');
  out.push(
    'jsonwebtoken  <9.0.0',
    'Severity: high',
    'jsonwebtoken unrestricted key type could lead to legacy keys usage - https://github.com/advisories/GHSA-8cf7-32gw-wr33',
  );
  out.push('fix available via `npm audit fix --force`', '1 high severity vulnerability', '');
  out.push('$ tsc -p tsconfig.build.json');
  out.push(
    "src/billing/invoice.ts:88:17 - error TS2345: Argument of type 'string | undefined' is not assignable to parameter of type 'string'.",
    '',
  );
  out.push(
    '88     return format(invoice.currency, total);',
    '                   ~~~~~~~~~~~~~~~~',
    '',
    'Found 1 error in src/billing/invoice.ts:88',
    '',
  );
  out.push('$ vitest run --reporter=verbose');
  let second = 0;
  for (let t = 0; t < 600; t++) {
    const mod = pick(MODULES);
    second += next() < 0.3 ? 1 : 0;
    if (t === 217) {
      out.push(' × src/cart/cart.service.test.ts > cart service > applies the discount before tax 12ms');
      out.push('   → expected 107.99 to be 98.99 // Object.is equality');
      continue;
    }
    if (t === 431) {
      out.push(' × src/orders/orders.repository.test.ts > orders repository > rolls back a failed payment 5003ms');
      out.push('   → Test timed out in 5000ms.');
      continue;
    }
    out.push(
      ` ✓ src/${mod}/${mod}.${pick(['service', 'controller', 'repository'])}.test.ts > ${mod} > ${pick(['creates', 'updates', 'lists', 'deletes', 'validates'])} ${pick(['an item', 'a page', 'the cache', 'a draft', 'the totals'])} ${Math.floor(next() * 40) + 1}ms`,
    );
    if (t % 25 === 0) {
      for (let r = 0; r < 8; r++) {
        out.push(
          `${time(second + r)} INFO  [http] GET /api/${mod}/${Math.floor(next() * 9000) + 1000} 200 ${Math.floor(next() * 90) + 3}ms`,
        );
      }
      out.push(`${time(second)} WARN  [db] slow query on ${mod} (${Math.floor(next() * 900) + 300}ms), retrying`);
    }
  }
  out.push('', ' FAIL  src/cart/cart.service.test.ts > cart service > applies the discount before tax');
  out.push('AssertionError: expected 107.99 to be 98.99 // Object.is equality');
  out.push(
    ' ❯ src/cart/cart.service.test.ts:41:33',
    '     39|     const cart = await service.checkout(basket);',
    '     40|',
    '  ❯  41|     expect(cart.total).toBe(98.99);',
  );
  out.push('', ' FAIL  src/orders/orders.repository.test.ts > orders repository > rolls back a failed payment');
  out.push('Error: Test timed out in 5000ms.', ' ❯ src/orders/orders.repository.test.ts:77:5', '');
  out.push(
    ' Test Files  2 failed | 58 passed (60)',
    '      Tests  2 failed | 598 passed (600)',
    '   Duration  41.27s',
    '',
  );
  out.push('TODO(ops): rotate the staging JWT signing key before Friday (owner: @mira)');
  out.push('Error: Process completed with exit code 1.');
  return `${out.join('\n')}\n`;
}
