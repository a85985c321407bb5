// The scratch workspace the everyday corpus is captured in: one git repository
// ("shop") holding an npm/TypeScript app, a Python package, a C library and a
// Cargo crate, with a history of branches and a merge, failing tests, type
// errors, compiler warnings and errors, a lockfile and a generated file. All
// text is written by this script or copied from permissively licensed packages
// in node_modules (see LICENSES.md next to the corpus).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, symlinkSync, utimesSync, writeFileSync, readdirSync, lstatSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { rng, pick } from './random.js';

export const MAIN_MODULES = join(import.meta.dirname, '../../node_modules');

/** Packages copied into the app's node_modules (all installed in the project; licences in LICENSES.md). */
export const VENDORED = [
  'semver',
  'diff',
  'picomatch',
  'minimatch',
  'magic-string',
  'htmlparser2',
  'entities',
  'domhandler',
  'piscina',
  'cacache',
];

const AUTHORS = [
  ['Ada Park', 'ada.park@example.com'],
  ['Bruno Silva', 'bruno@example.org'],
  ['Chen Wei', 'chen.wei@example.net'],
  ['Dana Kowalski', 'dana.k@example.com'],
];

/** Epoch of the first commit; every later commit is some hours after the previous one. */
const EPOCH = Date.UTC(2025, 2, 3, 9, 12, 0) / 1000;

export interface Workspace {
  readonly root: string;
  /** The git repository with everything in it. */
  readonly repo: string;
  readonly home: string;
  readonly env: NodeJS.ProcessEnv;
}

export function run(
  cwd: string,
  command: string,
  env: NodeJS.ProcessEnv,
  timeoutMs = 120_000,
): { out: string; status: number | null } {
  const result = spawnSync('bash', ['-c', `${command} 2>&1`], {
    cwd,
    env,
    encoding: 'utf8',
    timeout: timeoutMs,
    maxBuffer: 64 << 20,
  });
  return { out: result.stdout ?? '', status: result.status };
}

function must(cwd: string, command: string, env: NodeJS.ProcessEnv): string {
  const { out, status } = run(cwd, command, env);
  if (status !== 0) throw new Error(`workspace step failed (${status}): ${command}\n${out}`);
  return out;
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

// ---------------------------------------------------------------- the npm app

function appSources(seed: number): Record<string, string> {
  const r = rng(seed);
  const files: Record<string, string> = {};
  files['package.json'] = `${JSON.stringify(
    {
      name: 'shop',
      version: '1.4.0',
      private: true,
      type: 'module',
      scripts: { test: 'node --test test/', typecheck: 'tsc --noEmit', build: 'node scripts/bundle.mjs' },
      dependencies: { debug: '^4.3.4', ms: '^2.1.3', semver: '^7.5.0' },
      devDependencies: { diff: '^5.1.0' },
    },
    null,
    2,
  )}\n`;
  files['tsconfig.json'] = `${JSON.stringify(
    {
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      include: ['src'],
    },
    null,
    2,
  )}\n`;
  files['src/money.ts'] = [
    '// Amounts are integer cents; currencies never mix.',
    'export type Currency = "EUR" | "USD" | "GBP";',
    '',
    'export interface Money {',
    '  readonly cents: number;',
    '  readonly currency: Currency;',
    '}',
    '',
    'export class CurrencyMismatchError extends Error {',
    '  constructor(readonly left: Currency, readonly right: Currency) {',
    '    super(`cannot combine ${left} and ${right}`);',
    '  }',
    '}',
    '',
    'export function money(cents: number, currency: Currency = "EUR"): Money {',
    '  if (!Number.isInteger(cents)) throw new TypeError(`cents must be an integer, got ${cents}`);',
    '  return { cents, currency };',
    '}',
    '',
    'export function add(a: Money, b: Money): Money {',
    '  if (a.currency !== b.currency) throw new CurrencyMismatchError(a.currency, b.currency);',
    '  return money(a.cents + b.cents, a.currency);',
    '}',
    '',
    'export function format(m: Money): string {',
    '  const sign = m.cents < 0 ? "-" : "";',
    '  const abs = Math.abs(m.cents);',
    '  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")} ${m.currency}`;',
    '}',
    '',
  ].join('\n');
  const lines: string[] = [
    'import { add, money, type Money, type Currency } from "./money.js";',
    '',
    'export interface LineItem {',
    '  sku: string;',
    '  quantity: number;',
    '  unitPrice: Money;',
    '}',
    '',
    'export interface Cart {',
    '  id: string;',
    '  items: LineItem[];',
    '  currency: Currency;',
    '}',
    '',
  ];
  const verbs = ['apply', 'compute', 'validate', 'normalise', 'merge', 'split', 'round', 'tax'];
  const nouns = ['Discount', 'Shipping', 'Coupon', 'Total', 'Subtotal', 'Bundle', 'Voucher', 'Refund'];
  for (let i = 0; i < 14; i++) {
    const name = `${pick(r, verbs)}${pick(r, nouns)}${i}`;
    lines.push(
      `/** ${name}: step ${i} of the checkout pipeline. */`,
      `export function ${name}(cart: Cart, rate = ${(r() * 0.3).toFixed(2)}): Money {`,
      `  let total = money(0, cart.currency);`,
      `  for (const item of cart.items) {`,
      `    const line = money(Math.round(item.unitPrice.cents * item.quantity * (1 - rate)), cart.currency);`,
      `    total = add(total, line);`,
      `  }`,
      `  return total;`,
      `}`,
      '',
    );
  }
  // The type error tsc reports: a string where a number is due.
  lines.push('export const DEFAULT_QUANTITY: number = "1";', '');
  lines.push(
    'export function cartTotal(cart: Cart): Money {',
    '  return cart.items.reduce((sum, item) => add(sum, money(item.unitPrice.cents * item.quantity, cart.currency)), money(0, cart.currency));',
    '}',
    '',
  );
  files['src/cart.ts'] = lines.join('\n');
  files['src/index.ts'] =
    'export * from "./money.js";\nexport * from "./cart.js";\nexport { renderReceipt } from "./receipt.js";\n';
  files['src/receipt.ts'] = [
    'import { format, type Money } from "./money.js";',
    'import type { Cart } from "./cart.js";',
    '',
    'export function renderReceipt(cart: Cart, total: Money): string {',
    '  const rows = cart.items.map((item) => `${item.sku.padEnd(12)} x${item.quantity} ${format(item.unitPrice)}`);',
    '  return [...rows, "-".repeat(32), `TOTAL ${format(total)}`].join("\\n");',
    '}',
    '',
    'export function receiptWidth(cart: Cart): number {',
    '  return Math.max(...cart.items.map((item) => item.sku.length)) + cart.missingField;',
    '}',
    '',
  ].join('\n');
  files['test/money.test.mjs'] = [
    'import { test } from "node:test";',
    'import assert from "node:assert/strict";',
    '',
    'function format(cents) {',
    '  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;',
    '}',
    '',
    'test("formats whole amounts", () => {',
    '  assert.equal(format(1200), "12.00");',
    '});',
    '',
    'test("formats negative amounts", () => {',
    '  assert.equal(format(-250), "-2.50");',
    '});',
    '',
    'test("adds in the same currency", () => {',
    '  assert.deepEqual({ cents: 100 + 250 }, { cents: 350 });',
    '});',
    '',
    'test("rounds half to even", () => {',
    '  assert.equal(Math.round(2.5), 2, "banker\'s rounding expected");',
    '});',
    '',
  ].join('\n');
  files['scripts/bundle.mjs'] =
    '// Writes dist/shop.min.js (a generated file, committed for the CDN).\nimport { readFileSync, writeFileSync } from "node:fs";\nwriteFileSync("dist/shop.min.js", readFileSync("src/money.ts", "utf8").replace(/\\s+/g, " "));\n';
  files['README.md'] =
    '# shop\n\nA small checkout library: carts, money, receipts.\n\n## Develop\n\n```sh\nnpm test\nnpm run typecheck\n```\n';
  files['.gitignore'] = 'node_modules/\n.venv/\ntarget/\n__pycache__/\n*.o\n.pytest_cache/\nbuild/\n';
  return files;
}

// ----------------------------------------------------------- the Python package

function pythonSources(): Record<string, string> {
  return {
    'py/pyproject.toml':
      '[project]\nname = "inventory"\nversion = "0.3.1"\nrequires-python = ">=3.9"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\npythonpath = ["."]\n',
    'py/inventory/__init__.py': 'from .stock import Stock, OutOfStock\n\n__all__ = ["Stock", "OutOfStock"]\n',
    'py/inventory/stock.py': [
      '"""Stock levels per SKU, with reservations."""',
      'from __future__ import annotations',
      '',
      'from dataclasses import dataclass, field',
      '',
      '',
      'class OutOfStock(Exception):',
      '    """Raised when a reservation exceeds what is on hand."""',
      '',
      '    def __init__(self, sku: str, wanted: int, available: int) -> None:',
      '        super().__init__(f"{sku}: wanted {wanted}, only {available} available")',
      '        self.sku = sku',
      '',
      '',
      '@dataclass',
      'class Stock:',
      '    levels: dict[str, int] = field(default_factory=dict)',
      '    reserved: dict[str, int] = field(default_factory=dict)',
      '',
      '    def receive(self, sku: str, count: int) -> None:',
      '        self.levels[sku] = self.levels.get(sku, 0) + count',
      '',
      '    def available(self, sku: str) -> int:',
      '        return self.levels.get(sku, 0) - self.reserved.get(sku, 0)',
      '',
      '    def reserve(self, sku: str, count: int) -> None:',
      '        if count > self.available(sku):',
      '            raise OutOfStock(sku, count, self.available(sku))',
      '        self.reserved[sku] = self.reserved.get(sku, 0) + count',
      '',
      '    def release(self, sku: str, count: int) -> None:',
      '        # Bug: releasing more than reserved goes negative.',
      '        self.reserved[sku] = self.reserved.get(sku, 0) - count',
      '',
      '    def value(self, prices: dict[str, float]) -> float:',
      '        return sum(prices[sku] * n for sku, n in self.levels.items())',
      '',
    ].join('\n'),
    'py/tests/test_stock.py': [
      'import pytest',
      '',
      'from inventory import OutOfStock, Stock',
      '',
      '',
      '@pytest.fixture',
      'def stock():',
      '    s = Stock()',
      '    s.receive("apple", 10)',
      '    s.receive("pear", 3)',
      '    return s',
      '',
      '',
      'def test_receive_adds(stock):',
      '    stock.receive("apple", 5)',
      '    assert stock.available("apple") == 15',
      '',
      '',
      'def test_reserve_too_many(stock):',
      '    with pytest.raises(OutOfStock):',
      '        stock.reserve("pear", 4)',
      '',
      '',
      'def test_release_never_negative(stock):',
      '    stock.reserve("apple", 2)',
      '    stock.release("apple", 5)',
      '    assert stock.reserved["apple"] >= 0, "reservations went negative"',
      '',
      '',
      'def test_value_of_unknown_price(stock):',
      '    assert stock.value({"apple": 0.5}) == 5.0',
      '',
      '',
      '@pytest.mark.parametrize("sku,count,expected", [("apple", 1, 9), ("apple", 10, 0), ("pear", 3, 1), ("kiwi", 0, 0)])',
      'def test_available_after_reserve(stock, sku, count, expected):',
      '    stock.reserve(sku, count)',
      '    assert stock.available(sku) == expected',
      '',
      '',
      '@pytest.mark.parametrize("batch", range(160))',
      'def test_receive_batches(stock, batch):',
      '    stock.receive(f"sku-{batch}", batch % 7)',
      '    assert stock.available(f"sku-{batch}") == batch % 7 or batch % 53 == 52',
      '    assert batch != 97, "batch 97 is quarantined"',
      '',
    ].join('\n'),
  };
}

// ------------------------------------------------------------------ the C library

function cSources(): Record<string, string> {
  return {
    'native/Makefile': [
      'CC ?= gcc',
      'CFLAGS ?= -std=c11 -O2 -Wall -Wextra -Wshadow -Wconversion',
      'OBJ = build/ring.o build/parse.o build/main.o',
      '',
      'all: build/ringtool',
      '',
      'build/%.o: src/%.c src/ring.h',
      '\t@mkdir -p build',
      '\t$(CC) $(CFLAGS) -c $< -o $@',
      '',
      'build/ringtool: $(OBJ)',
      '\t$(CC) $(CFLAGS) $(OBJ) -o $@',
      '',
      'clean:',
      '\trm -rf build',
      '',
      '.PHONY: all clean',
      '',
    ].join('\n'),
    'native/src/ring.h': [
      '#ifndef RING_H',
      '#define RING_H',
      '#include <stddef.h>',
      '#include <stdint.h>',
      '',
      'typedef struct ring {',
      '    uint8_t *buf;',
      '    size_t cap;',
      '    size_t head;',
      '    size_t tail;',
      '} ring_t;',
      '',
      'int ring_init(ring_t *r, size_t cap);',
      'size_t ring_push(ring_t *r, const uint8_t *data, size_t len);',
      'size_t ring_pop(ring_t *r, uint8_t *out, size_t len);',
      'void ring_free(ring_t *r);',
      'long parse_size(const char *text);',
      '',
      '#endif',
      '',
    ].join('\n'),
    'native/src/ring.c': [
      '#include <stdlib.h>',
      '#include <string.h>',
      '#include "ring.h"',
      '',
      'int ring_init(ring_t *r, size_t cap) {',
      '    r->buf = malloc(cap);',
      '    if (!r->buf) return -1;',
      '    r->cap = cap;',
      '    r->head = r->tail = 0;',
      '    return 0;',
      '}',
      '',
      'size_t ring_push(ring_t *r, const uint8_t *data, size_t len) {',
      '    int written = 0;',
      '    for (size_t i = 0; i < len; i++) {',
      '        size_t next = (r->head + 1) % r->cap;',
      '        if (next == r->tail) break;',
      '        r->buf[r->head] = data[i];',
      '        r->head = next;',
      '        written++;',
      '    }',
      '    return written;',
      '}',
      '',
      'size_t ring_pop(ring_t *r, uint8_t *out, size_t len) {',
      '    size_t n = 0;',
      '    int unused_counter;',
      '    while (n < len && r->tail != r->head) {',
      '        out[n++] = r->buf[r->tail];',
      '        r->tail = (r->tail + 1) % r->cap;',
      '    }',
      '    return n;',
      '}',
      '',
      'void ring_free(ring_t *r) {',
      '    free(r->buf);',
      '    r->buf = NULL;',
      '}',
      '',
    ].join('\n'),
    'native/src/parse.c': [
      '#include <ctype.h>',
      '#include <stdlib.h>',
      '#include "ring.h"',
      '',
      '/* "64k" -> 65536, "2m" -> 2097152; -1 on junk. */',
      'long parse_size(const char *text) {',
      '    char *end;',
      '    long value = strtol(text, &end, 10);',
      '    switch (tolower(*end)) {',
      "    case 'k': value *= 1024; break;",
      "    case 'm': value *= 1024 * 1024; break;",
      "    case '\\0': break;",
      '    default: return -1;',
      '    }',
      '    unsigned short small = value;',
      '    return small;',
      '}',
      '',
    ].join('\n'),
    'native/src/main.c': [
      '#include <stdio.h>',
      '#include "ring.h"',
      '',
      'int main(int argc, char **argv) {',
      '    ring_t ring;',
      '    long size = argc > 1 ? parse_size(argv[1]) : 4096;',
      '    if (ring_init(&ring, size) != 0) {',
      '        fprintf(stderr, "out of memory\\n");',
      '        return 1;',
      '    }',
      '    size_t pushed = ring_push(&ring, "hello", 5);',
      '    printf("pushed %zu of %zu\\n", pushed, ring.capacity);',
      '    ring_drain(&ring);',
      '    ring_free(&ring);',
      '    return 0;',
      '}',
      '',
    ].join('\n'),
  };
}

// ----------------------------------------------------------------- the Cargo crate

/** A Rust module of realistic shape (a few hundred lines), written by this script. */
export function rustLibrary(seed: number): string {
  const r = rng(seed);
  const out: string[] = [
    '//! Ledger: double-entry bookkeeping for the shop.',
    '',
    'use std::collections::BTreeMap;',
    'use std::fmt;',
    '',
    '/// An account identifier, e.g. `assets:cash`.',
    '#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]',
    'pub struct AccountId(pub String);',
    '',
    '#[derive(Debug, Clone, Copy, PartialEq, Eq)]',
    'pub enum Side {',
    '    Debit,',
    '    Credit,',
    '}',
    '',
    '#[derive(Debug, Clone)]',
    'pub struct Posting {',
    '    pub account: AccountId,',
    '    pub side: Side,',
    '    pub cents: i64,',
    '}',
    '',
    '#[derive(Debug)]',
    'pub enum LedgerError {',
    '    Unbalanced { debit: i64, credit: i64 },',
    '    UnknownAccount(AccountId),',
    '    Empty,',
    '}',
    '',
    'impl fmt::Display for LedgerError {',
    "    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {",
    '        match self {',
    '            LedgerError::Unbalanced { debit, credit } => write!(f, "unbalanced: debit {debit} != credit {credit}"),',
    '            LedgerError::UnknownAccount(id) => write!(f, "unknown account {}", id.0),',
    '            LedgerError::Empty => write!(f, "empty transaction"),',
    '        }',
    '    }',
    '}',
    '',
    'pub trait Balance {',
    '    fn balance(&self, account: &AccountId) -> i64;',
    '}',
    '',
    '#[derive(Default)]',
    'pub struct Ledger {',
    '    accounts: BTreeMap<AccountId, i64>,',
    '    journal: Vec<Vec<Posting>>,',
    '}',
    '',
    'impl Ledger {',
    '    pub fn new() -> Self {',
    '        Self::default()',
    '    }',
    '',
    '    pub fn open(&mut self, id: &str) {',
    '        self.accounts.entry(AccountId(id.to_string())).or_insert(0);',
    '    }',
    '',
    '    pub fn post(&mut self, postings: Vec<Posting>) -> Result<(), LedgerError> {',
    '        if postings.is_empty() {',
    '            return Err(LedgerError::Empty);',
    '        }',
    '        let debit: i64 = postings.iter().filter(|p| p.side == Side::Debit).map(|p| p.cents).sum();',
    '        let credit: i64 = postings.iter().filter(|p| p.side == Side::Credit).map(|p| p.cents).sum();',
    '        if debit != credit {',
    '            return Err(LedgerError::Unbalanced { debit, credit });',
    '        }',
    '        for p in &postings {',
    '            let entry = self.accounts.get_mut(&p.account).ok_or_else(|| LedgerError::UnknownAccount(p.account.clone()))?;',
    '            *entry += match p.side { Side::Debit => p.cents, Side::Credit => -p.cents };',
    '        }',
    '        self.journal.push(postings);',
    '        Ok(())',
    '    }',
    '}',
    '',
    'impl Balance for Ledger {',
    '    fn balance(&self, account: &AccountId) -> i64 {',
    '        self.accounts.get(account).copied().unwrap_or(0)',
    '    }',
    '}',
    '',
  ];
  const topics = [
    'rent',
    'payroll',
    'refund',
    'shipping',
    'vat',
    'fees',
    'inventory',
    'interest',
    'depreciation',
    'petty_cash',
    'deferred',
    'accrual',
  ];
  for (const [i, topic] of topics.entries()) {
    const n = 2 + Math.floor(r() * 3);
    out.push(
      `/// Posts the ${topic.replace('_', ' ')} entries of one period.`,
      `pub fn post_${topic}(ledger: &mut Ledger, period: u32, amounts: &[i64]) -> Result<usize, LedgerError> {`,
      `    let mut posted = 0;`,
      `    for (i, cents) in amounts.iter().enumerate().take(${n + 3}) {`,
      `        let postings = vec![`,
      `            Posting { account: AccountId(format!("expenses:${topic}:{period}")), side: Side::Debit, cents: *cents },`,
      `            Posting { account: AccountId("assets:bank".into()), side: Side::Credit, cents: *cents },`,
      `        ];`,
      `        ledger.post(postings)?;`,
      `        posted += i + ${i % 3};`,
      `    }`,
      `    Ok(posted)`,
      `}`,
      '',
    );
  }
  // Three compile errors: a type mismatch, a missing field, a use after move.
  out.push(
    'pub fn opening_balance(ledger: &Ledger) -> i64 {',
    '    let cash: u32 = ledger.balance(&AccountId("assets:cash".into()));',
    '    cash',
    '}',
    '',
    'pub fn audit(ledger: &Ledger) -> usize {',
    '    ledger.entries.len()',
    '}',
    '',
    'pub fn close_period(ledger: Ledger) -> (Ledger, usize) {',
    '    let moved = ledger;',
    '    (moved, ledger.journal.len())',
    '}',
    '',
    '#[cfg(test)]',
    'mod tests {',
    '    use super::*;',
    '',
    '    #[test]',
    '    fn balanced_posting() {',
    '        let mut ledger = Ledger::new();',
    '        ledger.open("assets:bank");',
    '        ledger.open("expenses:rent:1");',
    '        assert!(post_rent(&mut ledger, 1, &[1200]).is_ok());',
    '    }',
    '}',
    '',
  );
  return out.join('\n');
}

function rustSources(): Record<string, string> {
  return {
    'ledger/Cargo.toml': '[package]\nname = "ledger"\nversion = "0.2.0"\nedition = "2021"\n\n[dependencies]\n',
    'ledger/src/lib.rs': rustLibrary(7),
  };
}

// --------------------------------------------------------------------- history

function gitEnv(base: NodeJS.ProcessEnv, author: readonly string[], when: number): NodeJS.ProcessEnv {
  const date = `${when} +0000`;
  return {
    ...base,
    GIT_AUTHOR_NAME: author[0],
    GIT_AUTHOR_EMAIL: author[1],
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_NAME: author[0],
    GIT_COMMITTER_EMAIL: author[1],
    GIT_COMMITTER_DATE: date,
  };
}

function lockfile(versions: Record<string, string>): string {
  const packages: Record<string, unknown> = {
    '': { name: 'shop', version: '1.4.0', dependencies: { debug: '^4.3.4', ms: '^2.1.3', semver: '^7.5.0' } },
  };
  for (const [name, version] of Object.entries(versions).sort()) {
    const digest = Buffer.from(`${name}@${version}`).toString('base64').padEnd(86, 'A');
    packages[`node_modules/${name}`] = {
      version,
      resolved: `https://registry.npmjs.org/${name}/-/${name.split('/').pop()}-${version}.tgz`,
      integrity: `sha512-${digest}==`,
      license: 'MIT',
      ...(name === 'debug' ? { dependencies: { ms: '^2.1.3' } } : {}),
      ...(name === 'diff' ? { dev: true, engines: { node: '>=0.3.1' } } : {}),
    };
  }
  return `${JSON.stringify({ name: 'shop', version: '1.4.0', lockfileVersion: 3, requires: true, packages }, null, 2)}\n`;
}

/** Sets every file's mtime from its path, so listings sort and print the same on every run. */
export function pinTimes(root: string, base = EPOCH + 90 * 86400): void {
  const used = new Set<number>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) continue;
      if (stat.isDirectory()) walk(path);
      let h = 0;
      for (const c of path.slice(root.length)) h = (h * 31 + c.charCodeAt(0)) >>> 0;
      let t = base + (h % (40 * 86400));
      while (used.has(t)) t++; // unique times: tools that sort by time then agree on one order
      used.add(t);
      utimesSync(path, t, t);
    }
  };
  walk(root);
  utimesSync(root, base, base);
}

export function createWorkspace(root: string): Workspace {
  const repo = join(root, 'shop');
  const home = join(root, 'home');
  mkdirSync(repo, { recursive: true });
  mkdirSync(home, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    PATH: `${join(MAIN_MODULES, '.bin')}:${process.env.PATH ?? ''}`,
    HOME: home,
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    TZ: 'UTC',
    TERM: 'dumb',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    NPM_CONFIG_UPDATE_NOTIFIER: 'false',
    CARGO_TERM_COLOR: 'never',
    PYTHONDONTWRITEBYTECODE: '1',
    COLUMNS: '120',
    ...(process.env.RUSTUP_HOME ? { RUSTUP_HOME: process.env.RUSTUP_HOME } : {}),
    ...(process.env.CARGO_HOME ? { CARGO_HOME: process.env.CARGO_HOME } : {}),
    ...(process.env.PYENV_ROOT ? { PYENV_ROOT: process.env.PYENV_ROOT } : {}),
  };
  // rustup and pyenv shims find their homes through HOME unless told.
  if (!env.RUSTUP_HOME && process.env.HOME) env.RUSTUP_HOME = join(process.env.HOME, '.rustup');
  if (!env.CARGO_HOME && process.env.HOME) env.CARGO_HOME = join(process.env.HOME, '.cargo');
  if (!env.PYENV_ROOT && process.env.HOME && existsSync(join(process.env.HOME, '.pyenv')))
    env.PYENV_ROOT = join(process.env.HOME, '.pyenv');
  write(
    join(home, '.gitconfig'),
    '[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n[color]\n\tui = never\n',
  );

  let when = EPOCH;
  let n = 0;
  const r = rng(42);
  const commit = (message: string, authorIndex?: number) => {
    when += 3600 * (2 + Math.floor(r() * 30));
    const author = AUTHORS[authorIndex ?? n % AUTHORS.length]!;
    n++;
    must(repo, 'git add -A', env);
    writeFileSync(join(home, 'message.txt'), `${message}\n`);
    must(repo, `git commit -q -F ${JSON.stringify(join(home, 'message.txt'))}`, gitEnv(env, author, when));
  };
  const put = (files: Record<string, string>) => {
    for (const [path, text] of Object.entries(files)) write(join(repo, path), text);
  };

  must(repo, 'git init -q', env);
  const app = appSources(1);
  put({ 'README.md': app['README.md']!, '.gitignore': app['.gitignore']!, 'package.json': app['package.json']! });
  commit('Initial commit: package skeleton');
  put({ 'src/money.ts': app['src/money.ts']!, 'tsconfig.json': app['tsconfig.json']! });
  commit('Add Money type with integer cents');
  put({ 'package-lock.json': lockfile({ debug: '4.3.4', ms: '2.1.3', semver: '7.5.0', diff: '5.1.0' }) });
  commit('Add lockfile');
  put({ 'src/cart.ts': app['src/cart.ts']!, 'src/index.ts': app['src/index.ts']! });
  commit(
    'Cart and checkout pipeline steps\n\nEach step takes a cart and a rate and returns a Money total.\nRates default to a per-step constant until pricing is wired in.',
  );
  put({ 'test/money.test.mjs': app['test/money.test.mjs']!, 'scripts/bundle.mjs': app['scripts/bundle.mjs']! });
  commit('Tests for money formatting; bundle script');
  mkdirSync(join(repo, 'dist'), { recursive: true });
  must(repo, 'node scripts/bundle.mjs', env);
  commit('Build dist/shop.min.js');
  put(pythonSources());
  commit('Inventory service in Python (stock levels, reservations)');
  put(cSources());
  commit('ringtool: ring buffer in C for the label printer');
  put(rustSources());
  commit('ledger crate: double-entry bookkeeping');

  // A feature branch and a fix branch, merged back with --no-ff.
  must(repo, 'git checkout -q -b feature/receipts', env);
  put({ 'src/receipt.ts': app['src/receipt.ts']! });
  commit('Render receipts', 1);
  put({
    'README.md': `${app['README.md']!}\n## Receipts\n\n\`renderReceipt(cart, total)\` prints one row per item and the total.\n`,
  });
  commit('Document receipts', 1);
  must(repo, 'git checkout -q main', env);
  must(repo, 'git checkout -q -b fix/rounding', env);
  put({ 'src/money.ts': app['src/money.ts']!.replace('Math.floor(abs / 100)', 'Math.trunc(abs / 100)') });
  commit('Fix rounding of negative amounts', 2);
  must(repo, 'git checkout -q main', env);
  when += 7200;
  must(repo, 'git merge -q --no-ff fix/rounding -m "Merge branch \'fix/rounding\'"', gitEnv(env, AUTHORS[0]!, when));
  when += 7200;
  must(
    repo,
    'git merge -q --no-ff feature/receipts -m "Merge branch \'feature/receipts\'"',
    gitEnv(env, AUTHORS[3]!, when),
  );

  // Many small commits of everyday work, so log, blame and stat have length.
  const subjects = [
    'Tidy imports',
    'Rename helper',
    'Adjust default rate',
    'Add comment on rounding',
    'Tweak receipt width',
    'Bump version',
    'Refine error message',
    'Split long function',
    'Inline constant',
    'Typo in docs',
  ];
  for (let i = 0; i < 36; i++) {
    const file = pick(r, [
      'src/cart.ts',
      'src/money.ts',
      'README.md',
      'py/inventory/stock.py',
      'native/src/ring.c',
      'ledger/src/lib.rs',
    ]);
    const path = join(repo, file);
    const text = must(repo, `cat ${file}`, env).split('\n');
    const at = 1 + Math.floor(r() * (text.length - 2));
    const comment = file.endsWith('.py') ? '#' : file.endsWith('.md') ? '' : '//';
    text.splice(
      at,
      0,
      `${comment}${comment ? ' ' : ''}note ${i}: ${pick(r, ['keep in sync with pricing', `see ticket SHOP-${100 + i}`, 'checked on staging', 'revisit after release'])}`,
    );
    writeFileSync(path, text.join('\n'));
    if (i % 9 === 4)
      put({
        'package-lock.json': lockfile({
          debug: `4.3.${4 + (i % 3)}`,
          ms: '2.1.3',
          semver: `7.5.${i % 5}`,
          diff: '5.1.0',
        }),
      });
    commit(`${pick(r, subjects)} (${file.split('/').pop()})`);
  }
  must(repo, 'git branch feature/discounts HEAD~4', env);
  must(repo, 'git tag v1.4.0 HEAD~10', env);

  // Uncommitted work for git status / git diff: source edits, a lockfile bump, a regenerated bundle.
  const cart = join(repo, 'src/cart.ts');
  const cartText = must(repo, 'cat src/cart.ts', env);
  writeFileSync(
    cart,
    cartText
      .replace('let total = money(0, cart.currency);', 'let total = money(0, cart.currency); // start at zero')
      .replace(/rate = (0\.\d+)/g, 'rate = $1 /* tuned */'),
  );
  const stock = join(repo, 'py/inventory/stock.py');
  writeFileSync(
    stock,
    must(repo, 'cat py/inventory/stock.py', env).replace(
      'self.reserved[sku] = self.reserved.get(sku, 0) - count',
      'self.reserved[sku] = max(0, self.reserved.get(sku, 0) - count)',
    ),
  );
  put({
    'package-lock.json': lockfile({
      debug: '4.4.1',
      ms: '2.1.3',
      semver: '7.7.2',
      diff: '5.2.0',
      'magic-string': '0.30.17',
      '@jridgewell/sourcemap-codec': '1.5.0',
    }),
  });
  put({
    'src/money.ts': must(repo, 'cat src/money.ts', env).replace(
      '"EUR" | "USD" | "GBP"',
      '"EUR" | "USD" | "GBP" | "CHF"',
    ),
  });
  must(repo, 'node scripts/bundle.mjs', env);
  put({
    'src/discount.ts': 'export const MAX_DISCOUNT = 0.5;\n',
    'notes/todo.md': '- wire pricing\n- receipts in PDF\n',
  });
  must(repo, 'git add src/discount.ts', env);

  // Vendored dependencies (copied from the project's own node_modules: offline and deterministic).
  for (const name of VENDORED) {
    const from = join(MAIN_MODULES, name);
    if (existsSync(from)) cpSync(from, join(repo, 'node_modules', name), { recursive: true, dereference: true });
  }
  // vitest resolves from the project's own install (a symlink, not a copy).
  if (existsSync(join(MAIN_MODULES, 'vitest'))) {
    mkdirSync(join(root, 'vt/node_modules'), { recursive: true });
    symlinkSync(join(MAIN_MODULES, 'vitest'), join(root, 'vt/node_modules/vitest'));
  }
  pinTimes(root);
  return { root, repo, home, env };
}
