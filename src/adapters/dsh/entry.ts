// The `squeeze/dsh` entry point. The plugin imports the harness's own packages
// (optional peer dependencies: the library and the command do without them).
// Without them, loading squeeze/dsh fails with a DshMissingError naming what to
// install instead of a bare ERR_MODULE_NOT_FOUND. Catching that takes a dynamic
// import, so this entry is ESM-only (top-level await): DSH loads plugins with
// import(); a CommonJS require('squeeze/dsh') gets ERR_REQUIRE_ASYNC_MODULE.
import type * as Plugin from './index.js';

/** The harness packages the plugin imports at run time. */
const DSH_PACKAGES = ['@deepseek-ai/dsh-tools', '@deepseek-ai/schemastery'] as const;

class DshMissingError extends Error {
  override readonly name = 'DshMissingError';
  constructor(options: { cause: unknown }) {
    super(`squeeze/dsh needs the DeepSeek Harness packages: npm install ${DSH_PACKAGES.join(' ')}`, options);
  }
}

const isMissingHarness = (error: unknown) =>
  (error as NodeJS.ErrnoException | null)?.code === 'ERR_MODULE_NOT_FOUND' &&
  String((error as Error).message).includes("'@deepseek-ai/");

async function load(): Promise<typeof Plugin> {
  try {
    return await import('./index.js');
  } catch (error) {
    throw isMissingHarness(error) ? new DshMissingError({ cause: error }) : error;
  }
}

const plugin = await load();
// Typed by reference to the plugin module, so the declarations stay short.
export const name: typeof Plugin.name = plugin.name;
export const inject: typeof Plugin.inject = plugin.inject;
export const Config: typeof Plugin.Config = plugin.Config;
export const apply: typeof Plugin.apply = plugin.apply;
export type { PluginConfig } from './index.js';
