// Benchmark inputs, built deterministically from the shared corpus of real tool
// outputs (read in place, never copied into the project). Sizes are UTF-8
// bytes: 1 KB = 1024 B, 1 MB = 2^20 B.
import { corpusFiles, type CorpusFile } from '../test/support/corpus.js';

export const KB = 1024;
export const MB = 1024 * 1024;

let files: CorpusFile[] | null = null;

function corpus(): CorpusFile[] {
  return (files ??= corpusFiles());
}

/** Corpus folders in name order, each with its files in name order. */
function byFolder(): CorpusFile[][] {
  const folders = new Map<string, CorpusFile[]>();
  for (const file of corpus()) {
    const list = folders.get(file.folder) ?? [];
    list.push(file);
    folders.set(file.folder, list);
  }
  return [...folders.keys()].sort().map((name) => folders.get(name)!);
}

/**
 * Every corpus file once, taking one file from each folder in turn (api-json,
 * build-logs, loghub, test-reports, web, api-json, ...), so that large inputs
 * mix logs, JSON, reports and HTML the way a session's tool outputs would.
 */
function mixedFiles(): CorpusFile[] {
  const folders = byFolder();
  const order: CorpusFile[] = [];
  for (let i = 0; order.length < corpus().length; i++) {
    for (const folder of folders) if (i < folder.length) order.push(folder[i]!);
  }
  return order;
}

/** The longest prefix of `text` (repeated as needed) that is at most `bytes` UTF-8 bytes. */
export function prefixOfBytes(text: string, bytes: number): string {
  const source = Buffer.from(text, 'utf8');
  // Four spare bytes show whether the character at the cut continues past it.
  const whole = Buffer.alloc(bytes + 4);
  for (let at = 0; at < whole.length; at += source.length)
    source.copy(whole, at, 0, Math.min(source.length, whole.length - at));
  let cut = bytes;
  while (cut > 0 && (whole[cut]! & 0xc0) === 0x80) cut--; // never split a character
  return whole.subarray(0, cut).toString('utf8');
}

let mixed: string | null = null;

/** The main table's input of `bytes` UTF-8 bytes: a prefix of the mixed corpus stream. */
export function mixedInput(bytes: number): string {
  return prefixOfBytes(
    (mixed ??= mixedFiles()
      .map((f) => f.text)
      .join('')),
    bytes,
  );
}

/** How many corpus files the mixed input of `bytes` draws on, and the first one's name. */
export function mixedInputSources(bytes: number): { files: number; first: string } {
  const order = mixedFiles();
  let files = 0;
  for (let at = 0; files < order.length && at < bytes; files++) at += Buffer.byteLength(order[files]!.text, 'utf8');
  return { files, first: `${order[0]!.folder}/${order[0]!.name}` };
}

/** The longest prefix of `text` with at most `units` UTF-16 code units that splits no surrogate pair. */
export function prefixOfUnits(text: string, units: number): string {
  let cut = Math.min(units, text.length);
  const last = text.charCodeAt(cut - 1);
  if (cut < text.length && last >= 0xd800 && last <= 0xdbff) cut--;
  return text.slice(0, cut);
}

/** One text per corpus folder, each a prefix of `units` code units of that folder's files joined. */
export function perKindInputs(units: number): { kind: string; text: string }[] {
  return byFolder().map((folder) => ({
    kind: folder[0]!.folder,
    text: prefixOfUnits(folder.map((f) => f.text).join(''), units),
  }));
}
