import { describe, expect, it } from 'vitest';
import { marker, originalId, retrievalNotice } from '../../src/store/index.js';

const ID = originalId('some original');

describe('marker', () => {
  it('is the documented marker form in pure ASCII', () => {
    expect(marker(ID, 'terminal', 12345)).toBe(`<<<CCR:${ID}|terminal|12345>>>`);
    expect(marker(ID, 'json', 0)).toMatch(/^[\x20-\x7e]+$/);
  });

  it('refuses what would break the form', () => {
    expect(() => marker('abc', 'terminal', 1)).toThrow(RangeError);
    expect(() => marker(ID, 'Tér|minal', 1)).toThrow(RangeError);
    expect(() => marker(ID, 'file', -1)).toThrow(RangeError);
    expect(() => marker(ID, 'file', 1.5)).toThrow(RangeError);
  });
});

describe('retrievalNotice', () => {
  it('names the marker, the ccr_retrieve tool and the CLI with range and grep', () => {
    const text = retrievalNotice(ID, 'web', 99);
    const lines = text.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(marker(ID, 'web', 99));
    expect(lines[1]).toContain(`ccr_retrieve {"hash":"${ID}"}`);
    expect(lines[1]).toContain('"range":{"start":N,"count":N}');
    expect(lines[1]).toContain('"grep":"P"');
    expect(lines[1]).toContain(`squeeze retrieve ${ID} [--start N --count N] [--grep P]`);
    expect(text).toMatch(/^[\x20-\x7e\n]+$/);
  });

  it('adds the spill locator and hint on one line', () => {
    const text = retrievalNotice(ID, 'file', 5, { locator: 'spill://run/7', hint: 'read it with\nspill_read' });
    expect(text.split('\n')[2]).toBe('[also saved: spill://run/7 (read it with spill_read)]');
    expect(retrievalNotice(ID, 'file', 5, { locator: ' ' }).split('\n')).toHaveLength(2);
  });
});
