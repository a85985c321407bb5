// What a command may touch of the outside world, injectable so the whole CLI
// runs in-process in tests.
import { readFileSync } from 'node:fs';
import { CliError, ExitCode } from './errors.js';

export interface CliIo {
  /** All of standard input, as bytes. */
  readStdin(): Promise<Buffer>;
  readonly stdinIsTTY: boolean;
  /** Results: raw bytes or text, written exactly as given. */
  stdout(data: string | Uint8Array): void;
  /** Notices, warnings and errors. */
  stderr(text: string): void;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export function processIo(): CliIo {
  return {
    async readStdin() {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    stdinIsTTY: Boolean(process.stdin.isTTY),
    stdout: (data) => void process.stdout.write(data),
    stderr: (text) => void process.stderr.write(text),
    env: process.env,
  };
}

/** The bytes of FILE, or of standard input for '-' or no FILE. */
export async function readInput(file: string | undefined, io: CliIo): Promise<{ bytes: Buffer; name: string }> {
  if (file === undefined || file === '-') {
    if (file === undefined && io.stdinIsTTY) {
      throw new CliError(ExitCode.usage, 'no input: give a FILE, or pipe text in (use - to read a terminal)');
    }
    return { bytes: await io.readStdin(), name: 'stdin' };
  }
  try {
    return { bytes: readFileSync(file), name: file };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (error as Error).message;
    throw new CliError(ExitCode.io, `cannot read ${file}: ${why}`, { cause: error });
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientUtf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Bytes that are not all UTF-8 as text: each sequence that does not decode
 * becomes U+FFFD, and `replaced` counts them (a U+FFFD the bytes spell out
 * themselves, EF BF BD, is not counted).
 */
export function decodeLenient(bytes: Uint8Array): { text: string; replaced: number } {
  const text = lenientUtf8.decode(bytes);
  let replaced = 0;
  for (let at = text.indexOf('\uFFFD'); at !== -1; at = text.indexOf('\uFFFD', at + 1)) replaced++;
  for (let i = 0; i + 2 < bytes.length; i++)
    if (bytes[i] === 0xef && bytes[i + 1] === 0xbf && bytes[i + 2] === 0xbd) replaced--;
  return { text, replaced };
}

/**
 * The text of UTF-8 bytes, BOM included, or null when they are not UTF-8
 * (a JS string cannot give such bytes back, so they are never stored).
 */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}
