// Entry point of the `squeeze` command (the bundle adds the #!/usr/bin/env node line).
// Node 22.1+ keeps the compiled bundle on disk (module.enableCompileCache, as
// tsc does), which saves most of a small call's start; so it is turned on
// before the rest of the CLI is imported. Older Nodes have no such cache.
import module from 'node:module';

(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const { runProcess } = await import('./process.js');
await runProcess();
