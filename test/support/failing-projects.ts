// Small projects with failures of known names, messages and locations, for the
// real-tools tests: a node --test suite (run by `npm test`), a TypeScript
// project with type errors (run by the project's own tsc) and a pytest suite.
// Many passing tests around the failures, so the outputs are large enough
// that squeeze compresses them.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface Failure {
  /** The failing test's name (or the compiler error's code). */
  readonly name: string;
  /** Text of its message the model must see. */
  readonly message: string;
  /** `file:line` (or tsc's `file(line,col)`) the model must see. */
  readonly location: string;
}

function write(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

const PASSING = 240;

/**
 * `npm test` → `node --test test/`: PASSING passing tests and two failures,
 * a rounding test (left out with `rounding: false`) and the bulk discount,
 * whose bug is `/ 1000` in src/cart.js (`/ 100` fixes it).
 */
export function nodeProject(root: string, options: { rounding?: boolean } = {}): Failure[] {
  const rounding = options.rounding ?? true;
  const lines = [
    "import { test } from 'node:test';",
    "import assert from 'node:assert/strict';",
    "import { total, discount } from '../src/cart.js';",
    '',
  ];
  for (let i = 0; i < PASSING / 2; i++)
    lines.push(
      `test('total of ${i} items at 3 each', () => { assert.equal(total(Array(${i}).fill([3, 1])), ${3 * i}); });`,
    );
  const roundingLine = lines.length + 1;
  if (rounding) lines.push("test('total rounds half cents up', () => { assert.equal(total([[0.5, 1]]), 1); });");
  for (let i = 0; i < PASSING / 2; i++)
    lines.push(
      `test('discount of ${i} percent keeps the total positive', () => { assert.ok(discount(100, ${i % 100}) >= 0); });`,
    );
  const bulk = lines.length + 1;
  lines.push(
    "test('bulk discount applies from ten items', () => { assert.equal(discount(1000, 10), 900, 'ten percent off a bulk order'); });",
  );
  write(root, {
    'package.json': `${JSON.stringify(
      { name: 'cart', version: '1.0.0', private: true, type: 'module', scripts: { test: 'node --test test/' } },
      null,
      2,
    )}\n`,
    'src/cart.js': [
      'export const total = (items) => items.reduce((sum, [price, qty]) => sum + price * qty, 0);',
      'export const discount = (amount, percent) => amount - Math.floor((amount * percent) / 1000);',
      '',
    ].join('\n'),
    'test/cart.test.js': `${lines.join('\n')}\n`,
  });
  return [
    ...(rounding
      ? [{ name: 'total rounds half cents up', message: '0.5 !== 1', location: `test/cart.test.js:${roundingLine}` }]
      : []),
    {
      name: 'bulk discount applies from ten items',
      message: 'ten percent off a bulk order',
      location: `test/cart.test.js:${bulk}`,
    },
  ];
}

/**
 * `tsc --noEmit -p .`: 400 errors of one kind between well-typed functions,
 * and three of their own (`tsc` resolves from the project's install, linked).
 */
export function typescriptProject(root: string, typescript: string): { distinct: Failure[]; repeated: Failure[] } {
  const lines = ['export interface Item { readonly sku: string; readonly cents: number }', ''];
  const at = (text: string) => {
    lines.push(text);
    return lines.length;
  };
  const repeated: Failure[] = [];
  for (let i = 0; i < 400; i++) {
    lines.push(`export function price${i}(item: Item): number { return item.cents * ${i + 1}; }`);
    const line = at(`export const rate${i}: number = '${i}%';`);
    repeated.push({
      name: 'TS2322',
      message: "Type 'string' is not assignable to type 'number'.",
      location: `src/items.ts(${line},`,
    });
  }
  const a = at("export const label: number = 'twelve';");
  const b = at('export function sku(item: Item): string { return item.cents; }');
  const c = at("export const missing = price0({ sku: 'a' });");
  write(root, {
    'tsconfig.json': `${JSON.stringify(
      {
        compilerOptions: { strict: true, noEmit: true, target: 'ES2022', module: 'ESNext', types: [] },
        include: ['src'],
      },
      null,
      2,
    )}\n`,
    'src/items.ts': `${lines.join('\n')}\n`,
  });
  mkdirSync(join(root, 'node_modules/.bin'), { recursive: true });
  symlinkSync(typescript, join(root, 'node_modules/typescript'));
  symlinkSync('../typescript/bin/tsc', join(root, 'node_modules/.bin/tsc'));
  const distinct = [
    { name: 'TS2322', message: "Type 'string' is not assignable to type 'number'.", location: `src/items.ts(${a},` },
    { name: 'TS2322', message: "Type 'number' is not assignable to type 'string'.", location: `src/items.ts(${b},` },
    {
      name: 'TS2345',
      message: "Property 'cents' is missing in type '{ sku: string; }'",
      location: `src/items.ts(${c},`,
    },
  ];
  return { distinct, repeated };
}

/** `pytest`: PASSING parametrised passes and two failures. */
export function pythonProject(root: string): Failure[] {
  const tests = [
    'import pytest',
    'from stock import Stock',
    '',
    `@pytest.mark.parametrize("count", range(${PASSING}))`,
    'def test_receive_adds(count):',
    '    s = Stock()',
    '    s.receive("sku-1", count)',
    '    assert s.level("sku-1") == count',
    '',
    '',
    'def test_reserve_more_than_stock_fails():',
    '    s = Stock()',
    '    s.receive("sku-2", 2)',
    '    with pytest.raises(ValueError, match="not enough stock"):',
    '        s.reserve("sku-2", 3)',
    '',
    '',
    'def test_release_restores_level():',
    '    s = Stock()',
    '    s.receive("sku-3", 5)',
    '    s.reserve("sku-3", 2)',
    '    s.release("sku-3", 2)',
    '    assert s.level("sku-3") == 5',
    '',
  ];
  write(root, {
    'stock.py': [
      'class Stock:',
      '    def __init__(self):',
      '        self.levels = {}',
      '',
      '    def receive(self, sku, count):',
      '        self.levels[sku] = self.levels.get(sku, 0) + count',
      '',
      '    def level(self, sku):',
      '        return self.levels.get(sku, 0)',
      '',
      '    def reserve(self, sku, count):',
      '        self.levels[sku] = self.level(sku) - count',
      '',
      '    def release(self, sku, count):',
      '        self.levels[sku] = self.level(sku) + count - 1',
      '',
    ].join('\n'),
    'test_stock.py': tests.join('\n'),
    'pytest.ini': '[pytest]\naddopts = -p no:cacheprovider\n',
  });
  return [
    { name: 'test_reserve_more_than_stock_fails', message: 'DID NOT RAISE', location: 'test_stock.py:14' },
    { name: 'test_release_restores_level', message: 'assert 4 == 5', location: 'test_stock.py:23' },
  ];
}
