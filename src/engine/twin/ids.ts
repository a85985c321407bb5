// TypeScript twin of assembly/ids.ts: lines with generated names and ids
// masked, fingerprinted, bit for bit.
import { isAsciiDigit } from '../../text/strings.js';
import { checkLineRanges } from '../contract.js';
import type { Fingerprints } from '../types.js';
import { hashRange } from './lines.js';

const isWordUnit = (c: number): boolean => ((c | 32) >= 97 && (c | 32) <= 122) || isAsciiDigit(c) || c === 95;
const isConsonant = (c: number): boolean =>
  c >= 98 && c <= 122 && c !== 101 && c !== 105 && c !== 111 && c !== 117 && c !== 121;

/**
 * The line text[start, end) with generated names and ids masked as `@` and
 * numbers as `#`, by words ([A-Za-z0-9_] runs): a word mixing digits with
 * letters or `_` is generated (`vethqgtfn62`, `sdb1`, `0x80700`), and so is
 * a word of eight lower-case letters or more with four consonants in a row
 * (`vethxtnkpvx`: random letters, which words rarely are; `y` is no
 * consonant here); a word of digits is a number. One scan, no pattern.
 */
export function idMasked(text: string, start: number, end: number): string {
  let out = '';
  let copied = start;
  for (let k = start; k < end; ) {
    if (!isWordUnit(text.charCodeAt(k))) {
      k++;
      continue;
    }
    const word = k;
    let digits = 0;
    let lower = 0;
    let run = 0;
    let consonants = false;
    for (; k < end; k++) {
      const c = text.charCodeAt(k);
      if (isAsciiDigit(c)) digits++;
      else if (c >= 97 && c <= 122) lower++;
      else if (!isWordUnit(c)) break;
      run = isConsonant(c) ? run + 1 : 0;
      if (run >= 4) consonants = true;
    }
    const len = k - word;
    const mask = digits > 0 ? (digits < len ? '@' : '#') : lower === len && len >= 8 && consonants ? '@' : null;
    if (mask !== null) {
      out += text.slice(copied, word) + mask;
      copied = k;
    }
  }
  return copied === start ? text.slice(start, end) : out + text.slice(copied, end);
}

/** The fingerprint of each line [starts[i], ends[i]) with its generated names and ids masked (idMasked). */
export function idMaskedHashes(text: string, starts: Int32Array, ends: Int32Array, count: number): Fingerprints {
  checkLineRanges(text.length, starts, ends, count);
  const hashA = new Uint32Array(count);
  const hashB = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const masked = idMasked(text, starts[i]!, ends[i]!);
    hashRange(masked, 0, masked.length, hashA, i, hashB);
  }
  return { hashA, hashB };
}
