// Command-line parsing on node:util parseArgs, with its errors turned into usage errors.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { usageError } from './errors.js';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export interface Parsed {
  readonly values: Record<string, string | boolean | undefined>;
  readonly positionals: string[];
}

/**
 * `--start -1` as `--start=-1`: parseArgs refuses a value that starts with a
 * dash ("argument is ambiguous"); joined, a negative number reaches the
 * option's own check and its message.
 */
function joinNegativeValues(args: readonly string[], options: OptionSpec): string[] {
  const takesValue = (word: string) => {
    const long = word.startsWith('--') ? word.slice(2) : undefined;
    const spec = long !== undefined ? options[long] : Object.values(options).find((o) => word === `-${o.short}`);
    return spec?.type === 'string';
  };
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word === '--') return [...out, ...args.slice(i)];
    if (!word.includes('=') && takesValue(word) && /^-\d/.test(args[i + 1] ?? '')) {
      out.push(`${word}=${args[++i]}`);
      continue;
    }
    out.push(word);
  }
  return out;
}

export function parse(args: string[], options: OptionSpec): Parsed {
  try {
    const { values, positionals } = parseArgs({
      args: joinNegativeValues(args, options),
      options,
      strict: true,
      allowPositionals: true,
    });
    return { values: values as Parsed['values'], positionals };
  } catch (error) {
    // node:util's messages start with a capital ("Unknown option '--x'"); every other message here is lower case.
    const message = (error as Error).message.replace(/\. To specify a positional argument.*$/s, '');
    const unknown = /^Unknown option/.test(message);
    throw usageError(`${message[0]!.toLowerCase()}${message.slice(1)}${unknown ? ' (see --help)' : ''}`);
  }
}

/** An integer option of at least `min` (default 0), or undefined when absent. */
export function count(values: Parsed['values'], name: string, min = 0): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw)) || Number(raw) < min) {
    throw usageError(
      `--${name} takes a whole number from ${min} to ${Number.MAX_SAFE_INTEGER}, got ${JSON.stringify(raw)}`,
    );
  }
  return Number(raw);
}

export function oneOf<T extends string>(values: Parsed['values'], name: string, allowed: readonly T[]): T | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !(allowed as readonly string[]).includes(raw)) {
    throw usageError(`--${name} takes one of ${allowed.join(', ')}, got ${JSON.stringify(raw)}`);
  }
  return raw as T;
}

/** At most `max` positionals. */
export function positionals(parsed: Parsed, max: number, what: string): string[] {
  if (parsed.positionals.length > max) {
    throw usageError(`unexpected argument ${JSON.stringify(parsed.positionals[max])} (${what})`);
  }
  return parsed.positionals;
}
