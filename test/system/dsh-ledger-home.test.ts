// `logFile` (and `journalPath`) under `~/.dsh` follow `$DSH_HOME`, where the
// harness keeps all its data when that variable is set; other `~` paths stay
// in the OS home.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { expandHome } from '../../src/adapters/dsh/ledger.js';
import { createHarness, squeezePlugin, type Harness } from '../support/dsh-harness.js';

let h: Harness | undefined;
let home: string | undefined;
afterEach(() => {
  vi.unstubAllEnvs();
  h?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

describe('logFile and DSH_HOME', () => {
  it('the default logFile lands in $DSH_HOME/playform when DSH_HOME is set', async () => {
    home = mkdtempSync(join(tmpdir(), 'squeeze-dsh-home-'));
    vi.stubEnv('DSH_HOME', home);
    h = await createHarness();
    await h.ctx.plugin(squeezePlugin(), {}); // the default logFile: ~/.dsh/playform/hook-dsh-ccr.log
    const file = join(home, 'playform', 'hook-dsh-ccr.log');
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toMatch(/^\[\d{4}-\d\d-\d\dT[\d:.]+Z\] ccr: activated \(bundle /);
  });

  it('expands ~/.dsh against DSH_HOME, everything else against the OS home', () => {
    const env = { DSH_HOME: '/srv/dsh' };
    expect(expandHome('~/.dsh/playform/x.log', env)).toBe('/srv/dsh/playform/x.log');
    expect(expandHome('~/.dsh', env)).toBe('/srv/dsh');
    expect(expandHome('~/.dshrc', env)).toBe(join(homedir(), '.dshrc'));
    expect(expandHome('~/logs/x.log', env)).toBe(join(homedir(), 'logs/x.log'));
    expect(expandHome('/var/log/x.log', env)).toBe('/var/log/x.log');
    expect(expandHome('', env)).toBe('');
    expect(expandHome('~/.dsh/x.log', {})).toBe(join(homedir(), '.dsh/x.log'));
    expect(expandHome('~/.dsh/x.log', { DSH_HOME: '  ' })).toBe(join(homedir(), '.dsh/x.log')); // blank counts as unset
  });
});
