// The id an original is stored and retrieved under (docs/GLOSSARY.md, Id).
import { createHash } from 'node:crypto';

const ID = /^[0-9a-f]{24}$/;

/** First 24 lowercase hex characters (96 bits) of the SHA-256 of the text's UTF-8 bytes. */
export function originalId(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 24);
}

/** The id of UTF-8 bytes (equal to originalId of their text). */
export function bytesId(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 24);
}

/** Whether `value` has the shape of an id (24 lowercase hex); lookups still match exactly. */
export function isOriginalId(value: string): boolean {
  return ID.test(value);
}

/** Whether the text survives a UTF-8 round trip (no lone surrogates). */
export function isWellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

/** An id of the store's length: sizes a retrieval notice before the original is stored. */
export const SAMPLE_ID = 'a3f9c2e81b7d4065f2c9e8d1';

/** What an id looks like, for messages that refuse one. */
export const ID_SHAPE =
  'an id is the 24 hex characters after "<<<CCR:" in a marker such as <<<CCR:a3f9c2e81b7d4065f2c9e8d1|log|52311>>> ' +
  '(the whole marker or notice line may be pasted)';

/** Longest text searched for an id: a pasted notice is a few lines. */
const MAX_ID_INPUT = 4096;
/** A run of exactly 24 hex digits, not part of a longer run. */
const ID_IN_TEXT = /(?<![0-9a-f])[0-9a-f]{24}(?![0-9a-f])/gi;

/**
 * The id a reader typed or pasted: the id itself in any case, or a marker,
 * notice line or command naming exactly one id; undefined when there is none
 * or more than one (a caller then says what an id looks like).
 */
export function idFrom(input: string): string | undefined {
  if (input.length > MAX_ID_INPUT) return undefined;
  const found = new Set(Array.from(input.matchAll(ID_IN_TEXT), (match) => match[0].toLowerCase()));
  return found.size === 1 ? [...found][0] : undefined;
}
