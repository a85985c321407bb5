import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { cliRetrieval, idFrom, marker, originalId, retrievalNotice } from '../../src/store/index.js';

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
  it('names only the ways back its host vouches for: a retrieval tool, the CLI, both or none', () => {
    const both = retrievalNotice(ID, 'web', 99, undefined, { tool: 'ccr_retrieve', cli: {} }).split('\n');
    expect(both).toHaveLength(2);
    expect(both[0]).toBe(marker(ID, 'web', 99));
    expect(both[1]).toContain(`ccr_retrieve {"hash":"${ID}"}`);
    expect(both[1]).toContain('"range":{"start":N,"count":N}');
    expect(both[1]).toContain('"grep":"P"');
    expect(both[1]).toContain(`squeeze retrieve ${ID} [--start N --count N] [--grep P]`);
    const tool = retrievalNotice(ID, 'web', 99, undefined, { tool: 'ccr_retrieve' });
    expect(tool).toContain('ccr_retrieve');
    expect(tool).not.toContain('squeeze retrieve');
    const cli = retrievalNotice(ID, 'web', 99, undefined, { cli: { store: '/tmp/my store' } });
    expect(cli).not.toContain('ccr_retrieve');
    expect(cli).toContain(`squeeze retrieve ${ID} --store '/tmp/my store' [--start N`);
    expect(retrievalNotice(ID, 'web', 99)).toBe(marker(ID, 'web', 99));
    expect(both.join('\n')).toMatch(/^[\x20-\x7e\n]+$/);
  });

  it('adds the spill locator and hint on one line', () => {
    const ways = { tool: 'ccr_retrieve' };
    const text = retrievalNotice(ID, 'file', 5, { locator: 'spill://run/7', hint: 'read it with\nspill_read' }, ways);
    expect(text.split('\n')[2]).toBe('[also saved: spill://run/7 (read it with spill_read)]');
    expect(retrievalNotice(ID, 'file', 5, { locator: ' ' }, ways).split('\n')).toHaveLength(2);
  });
});

describe('cliRetrieval', () => {
  it('names the store a shell can open, and none it cannot or must not', () => {
    expect(cliRetrieval('')).toEqual({});
    expect(cliRetrieval('rel/dir')).toEqual({ store: resolve('rel/dir') });
    expect(cliRetrieval('redis://cache:6379')).toEqual({ store: 'redis://cache:6379' });
    expect(cliRetrieval(':memory:')).toBeUndefined();
    expect(cliRetrieval('redis://user:secret@cache:6379')).toBeUndefined();
    expect(cliRetrieval('/tmp/a\nb')).toBeUndefined();
  });
});

describe('idFrom', () => {
  it('finds the one id in what a reader typed or pasted', () => {
    expect(idFrom(ID.toUpperCase())).toBe(ID);
    expect(idFrom(`${marker(ID, 'log', 123)}`)).toBe(ID);
    expect(idFrom(retrievalNotice(ID, 'log', 123, undefined, { tool: 'ccr_retrieve', cli: {} }))).toBe(ID);
    expect(idFrom(ID.slice(0, 23))).toBeUndefined();
    expect(idFrom(`${ID}f`)).toBeUndefined();
    expect(idFrom(`${ID} ${originalId('other')}`)).toBeUndefined();
  });
});
