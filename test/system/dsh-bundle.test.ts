// The bundle patch DSH reads (cordis.patch.yml) must carry the plugin row with
// exactly the defaults the Config schema fills in, and the activation line's
// version must be the package's.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Config } from '../../src/adapters/dsh/config.js';
import { BUNDLE_VERSION } from '../../src/adapters/dsh/plugin.js';

const root = new URL('../../', import.meta.url);

describe('the squeeze bundle', () => {
  const patch = readFileSync(new URL('cordis.patch.yml', root), 'utf8');

  it('inserts one row for squeeze/dsh', () => {
    expect(patch).toMatch(/^- insert:\n {4}- id: squeeze\n {6}name: squeeze\/dsh\n {6}config: \{/m);
  });

  it('its config is every option at its default', () => {
    // the config is a JSON flow mapping (valid YAML), so JSON can read it back
    const config = JSON.parse(patch.slice(patch.indexOf('config: ') + 'config: '.length));
    expect(config).toEqual(Config({}));
  });

  it('the activation line names the package version', () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version: string };
    expect(BUNDLE_VERSION).toBe(pkg.version);
  });
});
