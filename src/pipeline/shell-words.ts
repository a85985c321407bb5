// A shell command line split the way POSIX sh splits it, far enough to route a
// result by the command that produced it: quotes, escapes, $(...) and `...`,
// comments, redirections (dropped with their targets), here-documents (bodies
// skipped), and the control operators that make chains (&& || ; & newline,
// subshell parentheses) and pipelines (| |&). It never expands anything.
// A maintained parser (shell-quote) would be preferable; none is installed.

/** One command of a chain: its pipeline stages, each a list of words. */
export type Pipeline = string[][];

const OPERATOR_START = new Set(['|', '&', ';', '<', '>', '(', ')', '\n']);
const BLANK = new Set([' ', '\t', '\r']);

type Token = { readonly word: string } | { readonly op: string };

/** Length of a $(...) / ${...} / `...` starting at `from` (which holds `$` or the backquote). */
function substitutionLength(line: string, from: number): number {
  if (line[from] === '`') {
    let i = from + 1;
    while (i < line.length && line[i] !== '`') i += line[i] === '\\' ? 2 : 1;
    return Math.min(line.length, i + 1) - from;
  }
  const open = line[from + 1]!;
  const close = open === '(' ? ')' : '}';
  let depth = 0;
  for (let i = from + 1; i < line.length; i++) {
    const c = line[i];
    if (c === '\\') i++;
    else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      i = end === -1 ? line.length : end;
    } else if (c === open) depth++;
    else if (c === close && --depth === 0) return i + 1 - from;
  }
  return line.length - from;
}

/** The redirection operator at `i` (`>`, `2>>`, `&>`, `2>&1`, `<<-`...), or null. */
function redirectionAt(line: string, i: number): string | null {
  const match = /^(?:&>>?|\d*(?:>\||>>?|<<<|<<-?|<>|<)(?:&\d*-?)?)/.exec(line.slice(i, i + 8));
  return match ? match[0] : null;
}

function tokenize(line: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let pendingHeredocs: { delimiter: string; strip: boolean }[] = [];
  const readWord = (): string => {
    let word = '';
    while (i < line.length) {
      const c = line[i]!;
      if (BLANK.has(c) || OPERATOR_START.has(c)) break;
      if (c === '\\') {
        if (line[i + 1] !== '\n') word += line[i + 1] ?? '';
        i += 2;
      } else if (c === "'") {
        const end = line.indexOf("'", i + 1);
        word += line.slice(i + 1, end === -1 ? line.length : end);
        i = end === -1 ? line.length : end + 1;
      } else if (c === '"') {
        i++;
        while (i < line.length && line[i] !== '"') {
          if (line[i] === '\\' && '"\\$`\n'.includes(line[i + 1] ?? '')) {
            if (line[i + 1] !== '\n') word += line[i + 1];
            i += 2;
          } else if ((line[i] === '$' && (line[i + 1] === '(' || line[i + 1] === '{')) || line[i] === '`') {
            const n = substitutionLength(line, i);
            word += line.slice(i, i + n);
            i += n;
          } else {
            word += line[i++];
          }
        }
        i++;
      } else if ((c === '$' && (line[i + 1] === '(' || line[i + 1] === '{')) || c === '`') {
        const n = substitutionLength(line, i);
        word += line.slice(i, i + n);
        i += n;
      } else {
        word += c;
        i++;
      }
    }
    return word;
  };
  while (i < line.length) {
    const c = line[i]!;
    if (BLANK.has(c)) {
      i++;
      continue;
    }
    if (c === '\\' && line[i + 1] === '\n') {
      i += 2; // a line continuation
      continue;
    }
    if (c === '#') {
      while (i < line.length && line[i] !== '\n') i++;
      continue;
    }
    if (c === '\n') {
      tokens.push({ op: '\n' });
      i++;
      // Here-document bodies start on the next line and end at their delimiter line.
      for (const { delimiter, strip } of pendingHeredocs) {
        while (i < line.length) {
          const end = line.indexOf('\n', i) === -1 ? line.length : line.indexOf('\n', i);
          const body = line.slice(i, end);
          i = end + 1;
          if ((strip ? body.replace(/^\t+/, '') : body) === delimiter) break;
        }
      }
      pendingHeredocs = [];
      continue;
    }
    const redirection = /[\d<>&]/.test(c) ? redirectionAt(line, i) : null;
    if (redirection !== null && (c !== '&' || line[i + 1] === '>')) {
      i += redirection.length;
      // `2>&1` and `>&-` carry their target; every other redirection takes the next word.
      if (!/&\d*-?$/.test(redirection)) {
        while (BLANK.has(line[i] ?? '')) i++;
        const target = readWord();
        if (redirection.startsWith('<<') && !redirection.startsWith('<<<')) {
          pendingHeredocs.push({ delimiter: target, strip: redirection.endsWith('-') });
        }
      }
      continue;
    }
    if (OPERATOR_START.has(c)) {
      const two = line.slice(i, i + 2);
      const op = ['&&', '||', '|&', ';;'].includes(two) ? two : c;
      tokens.push({ op });
      i += op.length;
      continue;
    }
    tokens.push({ word: readWord() });
  }
  return tokens;
}

/**
 * The commands of a chain (`a && b; c`), in order, each a pipeline of stages
 * of words. Empty commands are left out.
 */
export function parseCommandLine(line: string): Pipeline[] {
  const chain: Pipeline[] = [];
  let pipeline: Pipeline = [];
  let stage: string[] = [];
  const endStage = () => {
    if (stage.length > 0) pipeline.push(stage);
    stage = [];
  };
  const endCommand = () => {
    endStage();
    if (pipeline.length > 0) chain.push(pipeline);
    pipeline = [];
  };
  for (const token of tokenize(line)) {
    if ('word' in token) stage.push(token.word);
    else if (token.op === '|' || token.op === '|&') endStage();
    else endCommand();
  }
  endCommand();
  return chain;
}
