// The rollup build of the playground page (src/playground/): one HTML file,
// dist/playground/index.html, with the pipeline bundled for the browser (the
// WebAssembly core travels inside as base64, src/engine/wasm/binary.ts), the
// samples of src/playground/samples.json inlined and no asset to fetch, so it
// works from file://. The pipeline's two Node-only modules (the SQLite store,
// the worker pool) are replaced by src/playground/browser-stubs.ts; the build
// fails if anything else still imports a module the page cannot load.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import typescript from '@rollup/plugin-typescript';

const SRC = resolve('src');
const STUB = resolve(SRC, 'playground/browser-stubs.ts');
const REPLACED = new Set([resolve(SRC, 'store/store.ts'), resolve(SRC, 'pipeline/pool.ts')]);

/** Resolves imports of the Node-only modules to the stub. */
function browserStubs() {
  return {
    name: 'browser-stubs',
    async resolveId(source, importer, options) {
      if (!importer || !source.startsWith('.')) return null;
      const found = await this.resolve(source, importer, { ...options, skipSelf: true });
      return found && REPLACED.has(found.id) ? STUB : null;
    },
  };
}

/** Script text safe inside <script>: no `</script` closes it early. */
const inScript = (code) => code.replace(/<\/(script)/gi, '<\\/$1');

/** Writes index.html: the page markup with the samples and the bundle inlined (the bundle itself is not emitted). */
function inlinePage() {
  return {
    name: 'inline-page',
    generateBundle(_, bundle) {
      const chunk = Object.values(bundle).find((c) => c.type === 'chunk' && c.isEntry);
      if (chunk.imports.length > 0) throw new Error(`the playground bundle imports ${chunk.imports.join(', ')}`);
      const samples = JSON.parse(readFileSync('src/playground/samples.json', 'utf8')).map((s) => ({
        label: s.label,
        command: s.command,
        text: readFileSync(s.file, 'utf8'),
      }));
      const html = readFileSync('src/playground/page.html', 'utf8')
        .replace('id="samples">[]<', () => `id="samples">${inScript(JSON.stringify(samples))}<`)
        .replace('/*BUNDLE*/', () => inScript(chunk.code));
      delete bundle[chunk.fileName];
      this.emitFile({ type: 'asset', fileName: 'index.html', source: html });
    },
  };
}

export default {
  input: 'src/playground/main.ts',
  output: { dir: 'dist/playground', format: 'iife' },
  // store/id.ts hashes with node:crypto for ids the page makes itself (page-store.ts): its unused
  // import is dropped, and inlinePage fails the build should any import survive.
  external: ['node:crypto'],
  treeshake: { moduleSideEffects: (_, external) => !external },
  plugins: [
    browserStubs(),
    nodeResolve({ browser: true, preferBuiltins: false }),
    typescript({ tsconfig: './tsconfig.json', declaration: false, outDir: 'dist/playground' }),
    inlinePage(),
  ],
};
