// Exit codes of `squeeze` (documented in `squeeze --help`) and the error that carries one.

export const ExitCode = {
  ok: 0,
  /** A bug in squeeze: the message says so and how to get details (SQUEEZE_DEBUG=1). */
  internal: 1,
  /** Bad command line: unknown command or option, missing or malformed value, invalid pattern, an ID naming no id, --start 0. */
  usage: 2,
  /** `retrieve`: no original under that id, or it expired. */
  notFound: 3,
  /** An input file cannot be read or the output cannot be written. */
  io: 4,
  /** `compress --json` given bytes that are not UTF-8 and not compressed (JSON cannot carry them). */
  notUtf8: 5,
  /**
   * The store could not keep or read an original (unsafe folder, read-only, full,
   * busy, damaged, Redis unreachable; for `compress`, also a :memory: store, gone
   * when the command exits). `compress` printed the text unchanged, without an id.
   */
  storeUnavailable: 6,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** A failure the user can act on: printed as one line on stderr, never with a stack trace. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    readonly exitCode: ExitCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function usageError(message: string): CliError {
  return new CliError(ExitCode.usage, message);
}
