// Routing: the command-line table (test/fixtures/routing.json) drives the
// command claims and the parser; whole-pipeline cases show the order of trust
// (tool name, command line, sniffing), the sniff floor and the text default.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HEAD_LINES } from '../../src/engine/contract.js';
import { ccrType } from '../../src/pipeline/ccr.js';
import { operands, producingCommand } from '../../src/pipeline/command.js';
import { createSqueeze } from '../../src/pipeline/index.js';
import { claimOfCommand, route } from '../../src/pipeline/route.js';
import { parseCommandLine } from '../../src/pipeline/shell-words.js';
import { processors } from '../../src/processors/index.js';
import { CONTENT_KINDS } from '../../src/types.js';
import { backendName, analysisOf } from '../support/backend.js';
import { expand, fixtures } from '../support/fixtures.js';

interface Table {
  commands: { command: string; kind: string | null }[];
  producers: { command: string; program: string | null; operands?: string[]; grepped?: boolean }[];
}

const table: Table = JSON.parse(readFileSync(resolve(import.meta.dirname, '../fixtures/routing.json'), 'utf8'));
/** Kinds whose processor is in the table and claims commands or file extensions (rows for others wait for them). */
const claimable = new Set<string>(
  CONTENT_KINDS.filter(
    (kind) => (processors[kind].commands?.length ?? 0) + (processors[kind].fileExtensions?.length ?? 0) > 0,
  ),
);

describe(`routing by command line (${backendName})`, () => {
  it.each(table.commands.map((row) => [row.command, row] as const))('%s', (_, row) => {
    if (row.kind !== null && !claimable.has(row.kind)) return; // that processor claims no commands yet
    expect(claimOfCommand(row.command)?.kind ?? null).toBe(row.kind);
  });

  it.each(table.producers.map((row) => [row.command, row] as const))('producer of %s', (_, row) => {
    const producer = producingCommand(row.command);
    expect(producer?.program ?? null).toBe(row.program);
    if (producer === null) return;
    expect(operands(producer.program, producer.args)).toEqual(row.operands ?? []);
    expect(producer.grepped).toBe(row.grepped ?? false);
  });
});

describe('shell words', () => {
  it('splits quotes, escapes, substitutions, redirections and here-documents like sh', () => {
    expect(parseCommandLine(`a "b c" 'd e' f\\ g "h\\"i" $(x "y z") 2>&1 >out.txt <in && k`)).toEqual([
      [['a', 'b c', 'd e', 'f g', 'h"i', '$(x "y z")']],
      [['k']],
    ]);
    expect(parseCommandLine('cat <<-EOF | wc -l\n\tgit diff\n\tEOF\nls')).toEqual([[['cat'], ['wc', '-l']], [['ls']]]);
    expect(parseCommandLine('a | b |& c; d & e || f')).toEqual([[['a'], ['b'], ['c']], [['d']], [['e']], [['f']]]);
    expect(parseCommandLine('')).toEqual([]);
    expect(parseCommandLine('# only a comment')).toEqual([]);
  });

  it('never throws or hangs on any line', () => {
    const pieces = fc.constantFrom(
      '"',
      "'",
      '\\',
      '$(',
      '`',
      ')',
      '(',
      '|',
      '||',
      '&&',
      '&',
      ';',
      '<<',
      '<<-',
      'EOF',
      '\n',
      ' ',
      '#',
      '2>&1',
      '>',
      'git',
      'diff',
      'sudo',
      '-C',
      'x',
      'sh',
      '-c',
      'xargs',
      'cat',
      'a.json',
      '=',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.array(pieces, { maxLength: 80 }).map((p) => p.join('')),
        ),
        (line) => {
          producingCommand(line);
          claimOfCommand(line);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('never throws on unbalanced input', () => {
    for (const line of [`echo "unclosed`, `echo 'unclosed`, 'a $(b', 'a `b', 'x \\', '<<', '| | ;;', '(((']) {
      expect(() => producingCommand(line)).not.toThrow();
    }
  });
});

describe(`routing order of trust (${backendName})`, () => {
  const squeeze = createSqueeze({ backend: backendName, store: null, retainOriginal: false, minTokens: 1 });
  const jest = fixtures('logs').find((f) => f.name === 'jest')!.text;
  const json = JSON.stringify(
    Array.from({ length: 200 }, (_, i) => ({ id: i, name: `user ${i}`, active: i % 3 === 0 })),
    null,
    2,
  );
  const prose = expand(
    '@@repeat 60: Paragraph {i} of the notes says what the team decided and why it matters to them.@@',
  );
  const grepHits = expand('@@repeat 80: src/module{i}.ts:{i}:  const value = compute({i});@@');

  it('trusts the tool name first, then the command line, then the text', () => {
    expect(route(analysisOf(grepHits), { kind: 'auto', toolName: 'grep', command: 'npm test' })).toBe('grep');
    expect(route(analysisOf(jest), { kind: 'auto', toolName: 'bash', command: 'npm test' })).toBe('log');
    expect(route(analysisOf(json), { kind: 'auto', command: 'cat data/users.json' })).toBe('json');
    expect(route(analysisOf(jest), { kind: 'auto' })).toBe('log');
  });

  it("takes a document the whole text parses as over a program's line-record kind, never over a file's extension", () => {
    const rows = `[${Array.from({ length: 60 }, (_, i) => `{"id":${i},"customer":"c${i % 7}","amount":${10 + i}.5}`).join(',\n')}]`;
    expect(route(analysisOf(rows), { kind: 'auto', command: "sqlite3 -json shop.db 'select * from orders'" })).toBe(
      'json',
    );
    // The same records as CSV stay the table the program's usual output is.
    const csv = ['id,customer,amount', ...Array.from({ length: 60 }, (_, i) => `${i},c${i % 7},${10 + i}.5`)].join(
      '\n',
    );
    expect(route(analysisOf(csv), { kind: 'auto', command: "sqlite3 -csv shop.db 'select * from orders'" })).toBe(
      'table',
    );
    // A source file that opens as an HTML page is still the source its extension says.
    const php = `<!DOCTYPE html>\n<html>\n<?php\n${Array.from({ length: 40 }, (_, i) => `function f${i}($a) {\n  return $a + ${i};\n}`).join('\n')}\n?>\n</html>\n`;
    expect(route(analysisOf(php), { kind: 'auto', command: 'cat views/items.php' })).toBe('code');
  });

  it("routes node --test's TAP to the log processor: its YAML blocks and comments mark it as test output", () => {
    const tap = readFileSync(resolve(import.meta.dirname, '../corpus/everyday/build/npm-test-raw.txt'), 'utf8');
    expect(route(analysisOf(tap), { kind: 'auto', toolName: 'bash', command: 'npm test' })).toBe('log');
  });

  it('needs the sniff above a floor: an error message is not the output the command promises', () => {
    expect(
      route(analysisOf('cat: data/users.json: No such file or directory\n'), {
        kind: 'auto',
        command: 'cat data/users.json',
      }),
    ).toBe('text');
    expect(route(analysisOf(''), { kind: 'auto', command: 'npm test' })).toBe('text');
  });

  it('reads a text past more blank lines than the sniffers look at', () => {
    const blanks = ' \n'.repeat(HEAD_LINES + 100);
    expect(route(analysisOf(`${blanks}${json}`), { kind: 'auto' })).toBe('json');
    expect(processors.text.sniff(analysisOf(`${blanks}a word`))).toBeGreaterThan(0);
    expect(processors.text.sniff(analysisOf(blanks))).toBe(0);
  });

  it('takes grep-picked lines as their kind only while they still look like it', () => {
    const picked = json
      .split('\n')
      .filter((line) => line.includes('"name"'))
      .join('\n');
    expect(route(analysisOf(picked), { kind: 'auto', command: 'cat data/users.json | grep name' })).toBe('text');
    const failures = jest
      .split('\n')
      .filter((line) => line.includes('FAIL') || line.includes('PASS'))
      .join('\n');
    expect(route(analysisOf(failures), { kind: 'auto', command: 'npm test 2>&1 | grep -E "PASS|FAIL"' })).toBe('log');
  });

  it('gives text nobody claims to the text processor, never to log sampling', () => {
    const result = squeeze.compress(prose, { command: 'frobnicate --all' });
    expect(result.kind).toBe('text');
    expect(route(analysisOf(prose), { kind: 'auto', toolName: 'bash' })).toBe('text');
  });

  it('falls back along the chain when the processor a command chose refuses the text', () => {
    const cut = [
      '[',
      ...Array.from({ length: 400 }, (_, i) => `  {"id": ${i}, "name": "user ${i}", "active": ${i % 3 === 0}},`),
    ].join('\n');
    expect(route(analysisOf(cut), { kind: 'auto', command: 'head -n 401 users.json' })).toBe('json');
    const result = squeeze.compress(cut, { command: 'head -n 401 users.json', level: 'light' });
    expect(result.outcome).toBe('compressed');
    expect(result.kind).not.toBe('json');
  });

  it('routes through the pipeline with the per-call command option', () => {
    expect(squeeze.compress(jest, { toolName: 'bash', command: 'cd app && npx jest --ci 2>&1 | tail -400' }).kind).toBe(
      'log',
    );
    expect(squeeze.compress(json, { toolName: 'bash', command: 'head -n 2000 users.json' }).kind).toBe('json');
    expect(() => squeeze.compress(jest, { command: 42 as unknown as string })).toThrow(/'command' must be a string/);
  });
});

describe('the one table of tool names: kinds and CCR types', () => {
  it("a tool a processor claims is typed as that processor declares; the host's other tools by ccr.ts", () => {
    const claimed = Object.values(processors).flatMap((p) => Object.entries(p.tools ?? {}));
    expect(claimed.length).toBeGreaterThan(0);
    for (const [tool, type] of claimed) expect(ccrType(tool, false, 'x'), tool).toBe(type);
    expect(ccrType('read', false, 'x')).toBe('file');
    expect(ccrType('bash', false, 'x')).toBe('terminal');
    expect(ccrType('web_fetch', false, 'x')).toBe('web');
    expect(ccrType('bash', true, 'x')).toBe('error');
    expect(ccrType('mystery', false, '{"a": 1}')).toBe('json');
    expect(ccrType(undefined, false, 'plain')).toBe('default');
  });
});
