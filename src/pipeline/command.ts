// Which program produced a shell command's output: the last command of a
// chain that prints anything, the last pipeline stage that is not a mere
// filter, and that stage with its wrappers (env assignments, sudo, time, npx,
// xargs, `sh -c`...) peeled off. Routing then matches it against the
// processors' `commands` and, for file printers, `fileExtensions`.
import { parseCommandLine } from './shell-words.js';

/** The stage whose output the text is (mostly). */
export interface ProducingCommand {
  /** Program name without its directory or `.exe`: `git`, `ls`, `tsc`. */
  readonly program: string;
  readonly args: readonly string[];
  /**
   * A `grep` later in the pipeline kept only some lines: still a listing or a
   * log, but no longer a whole file.
   */
  readonly grepped: boolean;
}

/** Commands run for their effect, whose output (if any) is not what the model asked for. */
const QUIET = new Set([
  'cd',
  'pushd',
  'popd',
  'true',
  'false',
  ':',
  'export',
  'set',
  'unset',
  'source',
  '.',
  'exit',
  'echo',
  'printf',
  'sleep',
  'wait',
  'clear',
  'alias',
  'trap',
  'shopt',
  'ulimit',
  'umask',
]);

/** Stages that pass their input through with lines cut or reordered: the kind is the input's. */
const FILTERS = new Set([
  'head',
  'tail',
  'less',
  'more',
  'cat',
  'tee',
  'sort',
  'uniq',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'column',
  'nl',
  'ansi2txt',
  'strip-ansi',
]);

const GREPS = new Set(['grep', 'egrep', 'fgrep', 'rg']);

/** Programs that print files: their output's kind is the file's. */
const FILE_PRINTERS = new Set(['cat', 'head', 'tail', 'bat', 'batcat', 'less', 'more', 'sed', 'nl']);

/** Options (per program) whose value is the next word: skipped when looking for subcommands and files. */
const VALUE_OPTIONS: Record<string, ReadonlySet<string>> = {
  git: new Set([
    '-C',
    '-c',
    '--git-dir',
    '--work-tree',
    '--namespace',
    '--super-prefix',
    '--config-env',
    '--exec-path',
  ]),
  kubectl: new Set(['-n', '--namespace', '--context', '--kubeconfig', '--cluster', '--user', '-s', '--server']),
  docker: new Set(['-H', '--host', '--context', '--config', '-l', '--log-level']),
  npm: new Set(['--prefix', '-w', '--workspace']),
  pnpm: new Set(['-C', '--dir', '--filter', '-F']),
  yarn: new Set(['--cwd']),
  cargo: new Set(['-C', '--config', '-Z', '--color']),
  make: new Set(['-C', '-f', '--file', '--directory', '-I', '-o', '-W']),
  head: new Set(['-n', '-c', '--lines', '--bytes']),
  tail: new Set(['-n', '-c', '--lines', '--bytes', '-s', '--sleep-interval', '--pid']),
  sed: new Set(['-e', '-f', '--expression', '--file', '-l']),
  bat: new Set(['-l', '--language', '-r', '--line-range', '-H', '--highlight-line', '--style', '--theme']),
  nl: new Set(['-b', '-n', '-s', '-v', '-w', '-i']),
};

/** Package runners: `npx tsc` runs tsc. */
const RUNNERS: Record<string, ReadonlySet<string> | 'always'> = {
  npx: 'always',
  bunx: 'always',
  pnpx: 'always',
  pnpm: new Set(['exec', 'dlx']),
  npm: new Set(['exec']),
  yarn: new Set(['exec', 'dlx']),
  bun: new Set(['x']),
  uv: new Set(['run']),
  poetry: new Set(['run']),
  pipenv: new Set(['run']),
  bundle: new Set(['exec']),
};

/** Yarn's own commands: any other first word is a script or a binary (`yarn jest`). */
const YARN_COMMANDS = new Set([
  'add',
  'audit',
  'autoclean',
  'bin',
  'cache',
  'check',
  'config',
  'create',
  'dlx',
  'exec',
  'generate-lock-entry',
  'global',
  'help',
  'import',
  'info',
  'init',
  'install',
  'licenses',
  'link',
  'list',
  'login',
  'logout',
  'node',
  'outdated',
  'owner',
  'pack',
  'policies',
  'publish',
  'remove',
  'run',
  'tag',
  'team',
  'test',
  'unlink',
  'unplug',
  'up',
  'upgrade',
  'upgrade-interactive',
  'version',
  'versions',
  'why',
  'workspace',
  'workspaces',
]);

/** Wrappers that run the rest of the line, with the options of theirs that take a value. */
const WRAPPERS: Record<string, ReadonlySet<string>> = {
  sudo: new Set(['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '-T', '--user', '--group', '--chdir']),
  doas: new Set(['-u', '-C']),
  time: new Set(['-f', '-o', '--format', '--output']),
  nice: new Set(['-n', '--adjustment']),
  ionice: new Set(['-c', '-n', '-p']),
  nohup: new Set(),
  exec: new Set(['-a']),
  command: new Set(),
  builtin: new Set(),
  stdbuf: new Set(['-i', '-o', '-e']),
  unbuffer: new Set(),
  xargs: new Set(['-I', '-L', '-n', '-P', '-s', '-d', '-E', '-a', '--max-args', '--max-procs', '--delimiter']),
  env: new Set(['-u', '-C', '-S', '--unset', '--chdir']),
  timeout: new Set(['-s', '-k', '--signal', '--kill-after']),
  watch: new Set(['-n', '-d', '--interval']),
  strace: new Set(['-o', '-e', '-p']),
  catchsegv: new Set(),
};

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

function programName(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1).replace(/\.(?:exe|cmd|bat)$/i, '');
}

/** Index of the first word at or after `from` that is not an option (or an option's value). */
function skipOptions(words: readonly string[], from: number, valueOptions: ReadonlySet<string> = new Set()): number {
  let i = from;
  while (i < words.length) {
    const word = words[i]!;
    if (word === '--') return i + 1;
    if (!word.startsWith('-') || word === '-') break;
    i += valueOptions.has(word) ? 2 : 1;
  }
  return i;
}

/** Non-option words after the program: subcommands, then operands. */
export function operands(program: string, args: readonly string[]): string[] {
  const values = VALUE_OPTIONS[program] ?? new Set<string>();
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word === '--') {
      out.push(...args.slice(i + 1));
      break;
    }
    if (word.startsWith('-') && word !== '-') {
      if (values.has(word)) i++;
      continue;
    }
    // cargo's `+nightly` toolchain selector precedes the subcommand.
    if (program === 'cargo' && word.startsWith('+') && out.length === 0) continue;
    out.push(word);
  }
  return out;
}

interface Unwrapped {
  readonly program: string;
  readonly args: string[];
  /** Run by xargs: its operands come from the input, so it reads files, not the input. */
  readonly xargs: boolean;
}

/** A stage with assignments and wrappers removed; null when nothing runs. */
function unwrap(stage: readonly string[]): Unwrapped | { line: string } | null {
  let words = [...stage];
  let xargs = false;
  for (let guard = 0; guard < 16; guard++) {
    while (words.length > 0 && ASSIGNMENT.test(words[0]!)) words.shift();
    if (words.length === 0) return null;
    const program = programName(words[0]!);
    const wrapper = WRAPPERS[program];
    if (wrapper) {
      if (program === 'xargs') xargs = true;
      let i = skipOptions(words, 1, wrapper);
      if (program === 'env') while (i < words.length && ASSIGNMENT.test(words[i]!)) i++;
      if (program === 'timeout' && i < words.length) i++; // the duration
      if (program === 'nice' && /^-\d+$/.test(words[1] ?? '')) i = Math.max(i, 2);
      words = words.slice(i);
      continue;
    }
    if (program === 'sh' || program === 'bash' || program === 'zsh' || program === 'dash') {
      const c = words.indexOf('-c');
      const lc = words.findIndex((w) => /^-[a-z]*c[a-z]*$/.test(w));
      const at = c !== -1 ? c : lc;
      if (at !== -1 && at + 1 < words.length) return { line: words[at + 1]! };
    }
    const runner = RUNNERS[program];
    const rest = operands(program, words.slice(1));
    if (runner === 'always' || runner?.has(rest[0] ?? '')) {
      const skip = runner === 'always' ? 0 : 1;
      const at = words.indexOf(rest[skip] ?? '', 1);
      if (at === -1) return null;
      words = words.slice(at);
      continue;
    }
    if (program === 'yarn' && rest.length > 0 && !YARN_COMMANDS.has(rest[0]!)) {
      words = words.slice(words.indexOf(rest[0]!, 1));
      continue;
    }
    if (/^python[\d.]*$/.test(program) && words[1] === '-m' && words.length > 2) {
      words = words.slice(2);
      continue;
    }
    return { program, args: words.slice(1), xargs };
  }
  return null;
}

/** The command whose output a shell command line prints, or null when none stands out. */
export function producingCommand(line: string, depth = 0): ProducingCommand | null {
  const chain = parseCommandLine(line);
  for (let c = chain.length - 1; c >= 0; c--) {
    const pipeline = chain[c]!;
    let grepped = false;
    for (let s = pipeline.length - 1; s >= 0; s--) {
      const stage = unwrap(pipeline[s]!);
      if (stage === null) continue;
      if ('line' in stage) {
        const inner = depth < 4 ? producingCommand(stage.line, depth + 1) : null;
        if (inner) return { ...inner, grepped: inner.grepped || grepped };
        break;
      }
      // A filter reading its input (no file operand besides a grep's pattern) passes the earlier stage's kind on.
      const searches = GREPS.has(stage.program);
      const filter =
        s > 0 &&
        !stage.xargs &&
        FILTERS.has(stage.program) &&
        (stage.program === 'tee' || operands(stage.program, stage.args).length <= (searches ? 1 : 0));
      if (filter) {
        grepped ||= searches;
        continue;
      }
      if (s === pipeline.length - 1 && QUIET.has(stage.program)) break;
      return { program: stage.program, args: stage.args, grepped };
    }
  }
  return null;
}

/** The files a file printer prints (sed's first operand is its script unless -e/-f gave it). */
export function printedFiles(command: ProducingCommand): string[] {
  if (!FILE_PRINTERS.has(command.program)) return [];
  // `less +G file`, `tail +5 file`: a leading `+` is a position, not a file.
  const words = operands(command.program, command.args).filter((word) => !word.startsWith('+'));
  if (
    command.program === 'sed' &&
    !command.args.some((a) => a === '-e' || a === '-f' || a.startsWith('--expression') || a.startsWith('--file'))
  ) {
    return words.slice(1);
  }
  return words;
}
