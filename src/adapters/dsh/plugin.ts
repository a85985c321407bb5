// Puts the plugin together on a Cordis context: the ledger, the core services,
// `ccr_retrieve`, the post-execute listener and, when asked for, the context
// engine. Everything is registered through `ctx`, so unloading the plugin
// removes it all.
import type { Context } from '@deepseek-ai/cordis';
import type {} from '@deepseek-ai/dsh-agent';
import type {} from '@deepseek-ai/dsh-tools';
import { parseConfig, type PluginConfig } from './config.js';
import { ContextEngine } from './context-engine.js';
import { gate, gateCeiling, gateSize, type GateConfig } from './gate.js';
import { createLedger, lines } from './ledger.js';
import { createPostExecuteListener, describeError, type SpillStoreLike } from './listener.js';
import type { ServiceOptions, Services } from './ports.js';
import { createRetrieveTool, spillPolicyCap } from './retrieve.js';

/** Cordis plugin name (loader diagnostics, logger name). */
export const name = 'squeeze';
/** The tool registry: its `tools/post-execute` waterfall is where results are compressed. */
export const inject = ['tools'];

/** squeeze's version, shown in the activation line (test/system checks it against package.json). */
export const BUNDLE_VERSION = '0.1.0';

export type ServiceFactory = (config: PluginConfig, options: ServiceOptions) => Services;

export function applyWith(ctx: Context, rawConfig: unknown, makeServices: ServiceFactory): void {
  const config = parseConfig(rawConfig);
  const logger = ctx.logger;
  const warn = (message: string) => logger.warn(message);
  const ledger = createLedger(logger, { enabled: config.log, file: config.logFile });
  const services = makeServices(config, {
    ttlSeconds: config.ttlSeconds,
    storeBudgetBytes: config.storeBudgetBytes,
    store: config.store,
    onEvent: (event) => ledger.write(lines.storeEventLine(event)),
    warn,
  });

  ctx.effect(() => () => void services.close());
  // Registered even when disabled: markers already in a transcript stay retrievable.
  ctx.tools.register(createRetrieveTool(services, { pageBytes: config.retrievePageBytes, inlineCap: () => spillPolicyCap(ctx.registry) }));
  if (!config.enabled) return;

  const engines = config.contextEngine ? createEngines(ctx, config, services, ledger, warn) : undefined;
  const listener = createPostExecuteListener({
    config,
    services,
    ledger,
    warn,
    spillStore: () => ctx.get('spillStore') as SpillStoreLike | undefined,
    ...(engines ? { engineOf: engines } : {}),
  });
  // Not prepended: the shipped spill-policy prepends itself, so it stays the
  // outer, last-resort byte cap around whatever this listener returns.
  ctx.on('tools/post-execute', listener);
  ledger.write(lines.activated(BUNDLE_VERSION, config.targets.length, config.storeBudgetBytes));
}

/**
 * One context engine per agent (fills and turn numbers belong to one
 * conversation; sub-agents have their own), kept as long as the agent object
 * lives. The archive goes through the same gate (opened: threshold 0, no
 * auto-expand) into the same store.
 */
function createEngines(
  ctx: Context,
  config: PluginConfig,
  services: Services,
  ledger: ReturnType<typeof createLedger>,
  warn: (message: string) => void,
): (agent: object | undefined) => ContextEngine | undefined {
  const opened: GateConfig = { ...config, thresholdBytes: 0, inlineThresholdBytes: 0, autoExpand: false };
  const ceiling = gateCeiling(opened);
  const archive = (record: { toolName: string; isError: boolean; text: string }) => {
    const size = gateSize([{ type: 'text', text: record.text }], record.text, ceiling);
    const verdict = gate({ toolName: record.toolName, isError: record.isError, text: record.text, size }, opened);
    if (verdict.action === 'pass') return false;
    // Archived by id: a store that fails (or a Redis put that rejects later) only costs the archive, with a warning.
    Promise.resolve()
      .then(() => services.store.put(record.text, { type: verdict.type, tool: record.toolName }))
      .catch((error: unknown) => warn(`squeeze: context engine: could not store an archived result (${describeError(error)})`));
    return true;
  };
  const engines = new WeakMap<object, ContextEngine>();
  const engineOf = (agent: object | undefined) => {
    if (agent === undefined) return undefined;
    let engine = engines.get(agent);
    if (engine === undefined) {
      engine = new ContextEngine(config, services.estimator, archive, (count) => ledger.write(lines.engineArchived(count)));
      engines.set(agent, engine);
    }
    return engine;
  };
  // A pure observer: the downstream decision is returned as it came.
  ctx.on('agent/pre-step', async (payload, next) => {
    const decision = await next();
    try {
      engineOf(payload.agent)?.preStep(payload);
    } catch (error) {
      warn(`squeeze: context engine: ${describeError(error)}; nothing archived`);
    }
    return decision;
  });
  return engineOf;
}
