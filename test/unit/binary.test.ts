// The binary processor on this machine's own Node executable and on the heads
// of common binary formats: one marker naming the size and the format, routed
// so whatever tool or command printed it, the original stored byte-exact as
// text; text without a NUL in its head is never taken for binary.
import { openSync, readSync, closeSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSqueeze } from '../../src/pipeline/index.js';
import { binaryProcessor } from '../../src/processors/binary/index.js';
import { analysisOf, backendName } from '../support/backend.js';

/** The first 64 KiB of the Node executable running this test, decoded as a tool would print it. */
function nodeExecutableHead(): string {
  const bytes = Buffer.alloc(64 * 1024);
  const fd = openSync(process.execPath, 'r');
  const read = readSync(fd, bytes, 0, bytes.length, 0);
  closeSync(fd);
  return new TextDecoder().decode(bytes.subarray(0, read));
}

const squeeze = () => createSqueeze({ backend: backendName, minTokens: 1 });

describe(`binary processor (${backendName})`, () => {
  it('shows a real executable as one marker with its size and format; the original retrieves exact', () => {
    const text = nodeExecutableHead();
    const s = squeeze();
    const result = s.compress(text, { toolName: 'bash', command: `cat ${process.execPath}` });
    expect(result.kind).toBe('binary');
    expect(result.outcome).toBe('compressed');
    const marker = result.output.split('\n')[0]!;
    expect(marker).toMatch(
      /^\[… lines 1–[\d,]+ \([\d,]+\): binary data, [\d,]+ characters(?:, starts with "[^"]+")? …\]$/,
    );
    expect(marker).toContain(`${text.length.toLocaleString('en-US')} characters`);
    expect(result.tokensOut).toBeLessThan(200);
    const back = s.store!.get(result.id!);
    expect(back.found && back.entry.text === text).toBe(true);
  });

  it.each([
    ['ELF', '\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0'],
    ['PNG', '\uFFFDPNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x01\0'],
    ['SQLite format 3', 'SQLite format 3\0\x10\0\x01\x01\0@  \0\0\0\x02'],
  ])('names the format %s from the first bytes, whatever tool or command printed it', (name, head) => {
    const text = `${head}${'\0\x01\x02\x03 data\n'.repeat(400)}`;
    for (const hints of [{ toolName: 'read' }, { toolName: 'bash', command: 'git show HEAD:logo.png' }, {}]) {
      const result = squeeze().compress(text, hints);
      expect(result.kind).toBe('binary');
      expect(result.output).toContain(`starts with "${name}"`);
    }
  });

  it('takes no text for binary: without a NUL in the first 8,000 characters it routes elsewhere or refuses', () => {
    const late = `${'a log line\n'.repeat(800)}\0after the head\n`;
    expect(binaryProcessor.sniff(analysisOf(late))).toBe(0);
    expect(squeeze().compress(late, { toolName: 'bash' }).kind).not.toBe('binary');
    const forced = squeeze().compress('plain words\n'.repeat(500), { kind: 'binary' });
    expect(forced.kind).toBe('text');
    expect(forced.output).not.toContain('binary data');
  });
});
