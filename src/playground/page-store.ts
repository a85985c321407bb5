// The page's store: the original of the latest result, in memory. Its id is the
// store's own (the first 24 hex of the SHA-256 of the UTF-8 bytes), computed
// with WebCrypto before compressing, since the browser hashes asynchronously
// and the pipeline's put is synchronous.
import type { Lookup, OriginalStore, PutMeta, Stored, StoredOriginal } from '../store/types.js';
import { utf8Bytes } from '../text/strings.js';

export class PageStore implements OriginalStore {
  private prepared: { text: string; id: string } | null = null;
  private kept: StoredOriginal | null = null;

  /** Hashes the text the next compress will put (once: a setting changed reruns the same text). */
  async prepare(text: string): Promise<void> {
    if (this.prepared?.text === text) return;
    if (!globalThis.crypto?.subtle)
      throw new Error('WebCrypto is unavailable: open the page from file:// or 127.0.0.1');
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
    const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
    this.prepared = { text, id: hex.slice(0, 24) };
  }

  put(text: string, meta: PutMeta): Stored {
    if (this.prepared?.text !== text) throw new Error('the page store keeps only the text it was prepared for');
    const now = Date.now();
    const size = utf8Bytes(text);
    this.kept = {
      id: this.prepared.id,
      type: meta.type,
      size,
      text,
      createdAt: now,
      ttlAt: Infinity,
      lastAccessed: now,
    };
    return { id: this.kept.id, size };
  }

  get(id: string): Lookup {
    return this.kept?.id === id ? { found: true, entry: this.kept } : { found: false, reason: 'unknown' };
  }
}
