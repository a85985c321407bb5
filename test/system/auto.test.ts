// 'auto': the twin for small texts, WebAssembly (loaded only when first
// needed) for large ones, and the twin for good after a WebAssembly failure.
import { describe, expect, it } from 'vitest';
import { AutoBackend, SMALL_TEXT_UNITS } from '../../src/engine/auto.js';
import { createBackend, TextAnalysis } from '../../src/engine/index.js';
import { JsBackend } from '../../src/engine/twin/backend.js';
import type { Backend } from '../../src/engine/index.js';

const big = 'line of a log\n'.repeat(SMALL_TEXT_UNITS);

describe("the 'auto' backend", () => {
  it('answers small texts on the twin and large ones on WebAssembly', () => {
    expect(new TextAnalysis('small\n', createBackend('auto')).backendName).toBe('js');
    const large = new TextAnalysis(big, createBackend('auto'));
    expect(large.lines.count).toBe(SMALL_TEXT_UNITS);
    expect(large.backendName).toBe('wasm');
  });

  it('loads WebAssembly only when a large text needs it', () => {
    let loads = 0;
    const auto = new AutoBackend(() => {
      loads++;
      return createBackend('wasm');
    }, new JsBackend());
    auto.begin('tiny');
    auto.lineTable();
    expect(loads).toBe(0);
    auto.begin(big);
    auto.begin(`${big}x`);
    expect(loads).toBe(1);
  });

  it('answers a trapping kernel on the twin, with the same result, and stays there', () => {
    const wasm = createBackend('wasm');
    const trapping = new Proxy(wasm, {
      get(target, key, receiver) {
        if (key === 'lineTable')
          return () => {
            throw new WebAssembly.RuntimeError('unreachable');
          };
        return Reflect.get(target, key, receiver);
      },
    }) as Backend;
    const auto = new AutoBackend(() => trapping, new JsBackend());
    auto.begin(big);
    expect(auto.name).toBe('wasm');
    const table = auto.lineTable();
    expect(auto.name).toBe('js');
    expect(auto.failure).toBeInstanceOf(WebAssembly.RuntimeError);
    const twin = new JsBackend();
    twin.begin(big);
    expect(Array.from(table.hashA)).toEqual(Array.from(twin.lineTable().hashA));
    auto.begin(`${big}again`);
    expect(auto.name).toBe('js');
  });
});
