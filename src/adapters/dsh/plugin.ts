// Puts the plugin together on a Cordis context: the ledger, the core services,
// `ccr_retrieve`, the post-execute listener and, when asked for, the context
// engine. Everything is registered through `ctx`, so unloading the plugin
// removes it all.
import type { Context } from '@deepseek-ai/cordis';
import type {} from '@deepseek-ai/dsh-agent';
import type {} from '@deepseek-ai/dsh-tools';
import { LATE } from '../../store/index.js';
import { parseConfig, type PluginConfig } from './config.js';
import { ContextEngine, type EngineDeps } from './context-engine.js';
import { createLedger, lines } from './ledger.js';
import { describeError } from './errors.js';
import { createPostExecuteListener } from './listener.js';
import { Spills, type SpillStoreLike } from './spill.js';
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
  ctx.tools.register(
    createRetrieveTool(services, {
      pageBytes: config.retrievePageBytes,
      inlineCap: () => spillPolicyCap(ctx.registry),
    }),
  );
  if (!config.enabled) return;

  const spills = new Spills(() => ctx.get('spillStore') as SpillStoreLike | undefined, warn);
  const engines = config.contextEngine ? createEngines(ctx, config, services, ledger, spills, warn) : undefined;
  const listener = createPostExecuteListener({
    config,
    services,
    ledger,
    warn,
    spills,
    ...(engines ? { engineOf: engines } : {}),
  });
  // Not prepended: the shipped spill-policy prepends itself, so it stays the
  // outer, last-resort byte cap around whatever this listener returns.
  ctx.on('tools/post-execute', listener);
  ledger.write(lines.activated(BUNDLE_VERSION, config.targets.length, config.storeBudgetBytes));
}

/**
 * One context engine per agent (fills, turns and the history it rewrites
 * belong to one conversation; sub-agents have their own), kept as long as the
 * agent object lives. Its pre-step listener is prepended and works before
 * `next()`: the engine shrinks the history first, so DSH's own compaction
 * (an inner pre-step listener) measures what is left, and its pruner (results
 * over 8,192 code points) never meets an engine digest, which is far smaller.
 */
function createEngines(
  ctx: Context,
  config: PluginConfig,
  services: Services,
  ledger: ReturnType<typeof createLedger>,
  spills: Spills,
  warn: (message: string) => void,
): (agent: object | undefined) => ContextEngine | undefined {
  const deps: EngineDeps = {
    estimator: services.estimator,
    compress: (text, call) => services.squeeze.compress(text, call),
    async original(id) {
      const found = await services.retrieve({ id });
      return found.ok ? found.text : undefined;
    },
    async retain(text, source) {
      const stored = await services.store.put(text, { type: source.type, tool: source.toolName });
      ledger.write(lines.stored(source.toolName, source.type, stored.size, stored.id));
      const spill = await spills.save(source, text);
      if (spill === LATE) ledger.write(lines.late('spill save', source.toolName, spills.deadlineMs, { id: stored.id }));
      const spilled = spill === LATE ? undefined : spill;
      return services.notice({
        id: stored.id,
        type: source.type,
        size: stored.size,
        ...(spilled ? { spill: spilled } : {}),
      });
    },
    shadowPrice() {
      const meter = ctx.get('tokenMeter' as never) as { estimateMessage?(message: unknown): number } | undefined;
      return typeof meter?.estimateMessage === 'function' ? (message) => meter.estimateMessage!(message) : undefined;
    },
    ledger: (line) => ledger.write(line),
    warn,
  };
  const engines = new WeakMap<object, ContextEngine>();
  const engineOf = (agent: object | undefined) => {
    if (agent === undefined) return undefined;
    let engine = engines.get(agent);
    if (engine === undefined) {
      engine = new ContextEngine(config, deps);
      engines.set(agent, engine);
    }
    return engine;
  };
  ctx.on(
    'agent/pre-step',
    async (payload, next) => {
      try {
        await engineOf(payload.agent)?.preStep(payload as never);
      } catch (error) {
        warn(`squeeze: context engine: ${describeError(error)}; history left as it was`);
      }
      return next();
    },
    { prepend: true },
  );
  return engineOf;
}
