// squeeze/dsh: the DeepSeek Harness plugin (a host-only Cordis bundle). Named
// exports only, as DSH loads plugins: `name`, `inject`, `Config`, `apply`.
// docs/dsh-plugin.md describes what it does and every option.
import type { Context } from '@deepseek-ai/cordis';
import { coreServices } from './core.js';
import { applyWith } from './plugin.js';

export { Config, type PluginConfig } from './config.js';
export { inject, name } from './plugin.js';

export function apply(ctx: Context, config: unknown): void {
  applyWith(ctx, config, coreServices);
}
