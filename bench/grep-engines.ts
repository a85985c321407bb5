// Retrieval grep engines on hostile and ordinary patterns: the backtracking
// RegExp retrieval used before, re2js (pure JavaScript RE2) and re2-wasm
// (Google's RE2 compiled to WebAssembly), each matching every line of a 1 MB
// original, and squeeze's retrieval as shipped (re2js, lines tested in blocks
// first, the output capped) end to end on the stored original. The target:
// every retrieval returns or errors within 100 ms.
// Run: npx tsx bench/grep-engines.ts
import { RE2JS } from 're2js';
import { RE2 } from 're2-wasm';
import { createStore, retrieve } from '../src/store/index.js';

const MB = 1024 * 1024;

/** 1 MB of log lines, with the given hostile line in the middle. */
function original(hostile: string): string {
  const lines: string[] = [];
  let size = hostile.length;
  for (let i = 0; size < MB; i++) {
    const line = `2026-11-30T09:00:${String(i % 60).padStart(2, '0')}Z ${i % 50 === 0 ? 'ERROR' : 'INFO '} [http] GET /api/orders/${i} 200 ${i % 97}ms`;
    lines.push(line);
    size += line.length + 1;
  }
  lines.splice(lines.length >> 1, 0, hostile);
  return lines.join('\n');
}

interface Case {
  readonly name: string;
  readonly pattern: string;
  readonly text: string;
}

const aBang = `${'a'.repeat(100_000)}!`;
const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa '.repeat(1800);
const CASES: Case[] = [
  { name: '(a+)+$ on 1 MB with 100 KB of a + !', pattern: '(a+)+$', text: original(aBang) },
  { name: '(a+)+$ on a 1 MB line of a + !', pattern: '(a+)+$', text: `${'a'.repeat(MB)}!` },
  { name: '(\\w+\\s?)+: on 1 MB with a 100 KB word line', pattern: '(\\w+\\s?)+:', text: original(words) },
  {
    name: '(\\w+\\s?)+: on 1 MB of 36-char word lines',
    pattern: '(\\w+\\s?)+:',
    text: Array.from({ length: MB / 37 }, () => 'aaaaaaaaaa bbbbbbbbbb cccccccccc dddd').join('\n'),
  },
  { name: 'ERROR on 1 MB of log', pattern: 'ERROR', text: original('') },
  { name: 'ERROR|WARN|timeout on 1 MB of log', pattern: 'ERROR|WARN|timeout', text: original('') },
  { name: 'orders/\\d+ 200 9\\dms on 1 MB of log', pattern: 'orders/\\d+ 200 9\\dms', text: original('') },
  { name: '(?i)error on 1 MB of log', pattern: '(?i)error', text: original('') },
];

function lines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

type Engine = { name: string; compile(pattern: string): (line: string) => boolean };

const engines: Engine[] = [
  {
    name: 're2js',
    compile: (p) => {
      const re = RE2JS.compile(p);
      return (l) => re.test(l);
    },
  },
  {
    name: 're2-wasm',
    compile: (p) => {
      const re = new RE2(p, 'u');
      return (l) => re.test(l);
    },
  },
  {
    name: 'RegExp (before)',
    compile: (p) => {
      const re = new RegExp(p.replace('(?i)', ''), p.startsWith('(?i)') ? 'i' : '');
      return (l) => re.test(l);
    },
  },
];

/** Backtracking on these never finishes: the old engine is only run where it returns. */
const CATASTROPHIC = new Set([0, 1, 2, 3]);

function measure(engine: Engine, c: Case): { ms: number; matches: number } {
  const all = lines(c.text);
  const runs: number[] = [];
  let matches = 0;
  for (let r = 0; r < 3; r++) {
    const started = performance.now();
    const test = engine.compile(c.pattern);
    matches = 0;
    for (const line of all) if (test(line)) matches++;
    runs.push(performance.now() - started);
  }
  return { ms: Math.min(...runs), matches };
}

/** squeeze's retrieval end to end (line table, blocks, caps), best of 3. */
function shipped(c: Case): number {
  const store = createStore();
  const { id } = store.put(c.text, { type: 'default' });
  const runs: number[] = [];
  for (let r = 0; r < 3; r++) {
    const started = performance.now();
    const result = retrieve(store, {
      id,
      grep: c.pattern.replace('(?i)', ''),
      ignoreCase: c.pattern.startsWith('(?i)'),
    });
    if (!result.ok) throw new Error(result.message);
    runs.push(performance.now() - started);
  }
  return Math.min(...runs);
}

console.log(`| case | ${engines.map((e) => `${e.name} per line, ms`).join(' | ')} | squeeze retrieve ms | matches |`);
console.log(`|---|${engines.map(() => '---:').join('|')}|---:|---:|`);
CASES.forEach((c, i) => {
  const cells: string[] = [];
  let matches = 0;
  for (const engine of engines) {
    if (engine.name.startsWith('RegExp') && CATASTROPHIC.has(i)) {
      cells.push('never returns');
      continue;
    }
    const m = measure(engine, c);
    matches = m.matches;
    cells.push(m.ms.toFixed(1));
  }
  console.log(`| ${c.name} | ${cells.join(' | ')} | ${shipped(c).toFixed(1)} | ${matches} |`);
});
