// The outline scanner on the language features that would fool a naive one:
// braces inside strings, char literals, regex and template literals; Allman
// braces; Go receivers; Python indentation with docstrings; YAML nesting.
import { describe, expect, it } from 'vitest';
import { headerText, langOf, nameOf, scan } from '../../src/processors/code/scan.js';
import { backendName } from '../support/backend.js';

/** Body folds of a source as `name from–to` (1-based), containers and transparent blocks left out. */
function bodies(path: string, source: string): string[] {
  const lines = source.split('\n');
  return scan(lines, langOf(path, lines))
    .blocks.filter((b) => b.kind === 'body')
    .sort((a, b) => a.from - b.from)
    .map((b) => `${b.header < 0 ? '?' : nameOf(headerText(lines, b.header))} ${b.from + 1}–${b.to + 1}`);
}

describe(`code outline scanner (${backendName})`, () => {
  it('skips braces in strings, template literals, regex literals and comments (TS)', () => {
    const source = [
      'export function parse(text: string): Node {', // 1
      "  const open = '{';", // 2
      '  const re = /[{}]+/g;', // 3
      '  const t = `${open} }`;', // 4
      '  /* } */ // }', // 5
      '  return build(text);', // 6
      '}', // 7
      'class Parser {', // 8
      '  run(): void {', // 9
      '    step();', // 10
      '    step();', // 11
      '  }', // 12
      '}', // 13
    ].join('\n');
    expect(bodies('a.ts', source)).toEqual(['parse 2–6', 'run 10–11']);
  });

  it('names C functions in Allman style, not the struct of their parameters', () => {
    const source = [
      '#define WRAP(x) { x }',
      'static int copy(struct buf *b, int n)',
      '{',
      '\tint k = n;',
      '\treturn k;',
      '}',
    ].join('\n');
    expect(bodies('a.c', source)).toEqual(['copy 4–5']);
  });

  it('reads Rust char literals and lifetimes apart', () => {
    const source = [
      "impl<'a> Lexer<'a> {",
      '    fn next(&mut self) -> Option<char> {',
      "        if c == '{' { return None; }",
      "        Some('}')",
      '    }',
      '}',
    ].join('\n');
    expect(bodies('a.rs', source)).toEqual(['next 3–4']);
  });

  it('names a Go method by its name, past its receiver', () => {
    const source = ['func (s *Server) Handle(w http.ResponseWriter) {', '\tw.Write(nil)', '\treturn', '}'].join('\n');
    expect(bodies('a.go', source)).toEqual(['Handle 2–3']);
  });

  it('folds Python def bodies by indentation, keeping the docstring line and multi-line signatures', () => {
    const source = [
      'class Store:', // 1
      '    def get(', // 2
      '        self, key: str,', // 3
      '    ) -> str:', // 4
      '        """The value of key."""', // 5
      '        text = """', // 6
      'def not_a_def():', // 7 (inside a string)
      '"""', // 8
      '        return text', // 9
      '', // 10
      'x = 1', // 11
    ].join('\n');
    const lines = source.split('\n');
    const found = scan(lines, langOf('a.py', lines));
    const def = found.blocks.find((b) => b.kind === 'body')!;
    expect([def.from + 1, def.to + 1, def.keep.map((k) => k + 1)]).toEqual([5, 9, [5]]);
    expect(found.blocks.filter((b) => b.kind === 'container').map((b) => [b.from + 1, b.to + 1])).toEqual([[2, 9]]);
  });

  it('nests YAML keys by indentation', () => {
    const source = ['spec:', '  template:', '    image: x', '    args: [a]', 'kind: Pod'].join('\n');
    const lines = source.split('\n');
    const blocks = scan(lines, langOf('a.yaml', lines)).blocks.map((b) => [b.header + 1, b.from + 1, b.to + 1, b.rank]);
    expect(blocks).toEqual([
      [2, 3, 4, 1],
      [1, 2, 4, 0],
    ]);
  });

  it('guesses the language of unnamed text, and leaves logs unscanned', () => {
    expect(langOf(undefined, ['def main():', '    pass', 'import os']).name).toBe('python');
    expect(langOf(undefined, ['int main(void) {', '  return 0;', '}']).name).toBe('js');
    expect(langOf(undefined, ['12:00:01 job {id=1} started', '12:00:02 job {id=1} done']).name).toBe('plain');
  });
});
