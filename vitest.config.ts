import { defineConfig } from 'vitest/config';

// test/unit runs once per backend (SQUEEZE_BACKEND=wasm, then js): the whole
// suite must pass on both. test/system runs once: differential comparisons of
// the two backends, the real harness, the CLI, the browser, calibration.
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'wasm', include: ['test/unit/**/*.test.ts'], env: { SQUEEZE_BACKEND: 'wasm' } } },
      { extends: true, test: { name: 'js', include: ['test/unit/**/*.test.ts'], env: { SQUEEZE_BACKEND: 'js' } } },
      { extends: true, test: { name: 'system', include: ['test/system/**/*.test.ts'] } },
    ],
  },
});
