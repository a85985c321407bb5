// The benchmark's kernel table: one entry per kernel. `run` is one timed call
// through the public Backend methods, so the WebAssembly side pays its copy in
// (begin) and its copies out exactly as the engine does. `prepare` computes,
// untimed, the inputs a kernel takes from an earlier kernel. Adding a kernel
// to the benchmark is adding one entry here.
import type { Backend, LineTable } from '../src/engine/index.js';
import { JsBackend } from '../src/engine/twin/backend.js';

export interface KernelCase<Prepared = unknown> {
  /** Row label. */
  readonly name: string;
  /** What one timed run does (printed under the table). */
  readonly measures: string;
  prepare(text: string): Prepared;
  run(backend: Backend, text: string, prepared: Prepared): unknown;
}

function kernelCase<P>(c: KernelCase<P>): KernelCase {
  return c as unknown as KernelCase;
}

/** The line table computed on the twin (bit-identical to WebAssembly's), for kernels that consume it. */
function twinLines(text: string): LineTable {
  const twin = new JsBackend();
  twin.begin(text);
  return twin.lineTable();
}

const noInput = (): null => null;

export const KERNELS: readonly KernelCase[] = [
  kernelCase({
    name: 'lines',
    measures: 'begin(text) + lineTable(): copy in, line starts/ends and 64-bit line fingerprints, four arrays copied out',
    prepare: noInput,
    run(backend, text) {
      backend.begin(text);
      return backend.lineTable();
    },
  }),
  kernelCase({
    name: 'group',
    measures: "groupLines(count, hashA, hashB) on the text's line hashes: hashes copied in, exact-duplicate groups copied out (MB/s of the text the lines came from)",
    prepare: twinLines,
    run(backend, _text, lines: LineTable) {
      return backend.groupLines(lines.count, lines.hashA, lines.hashB);
    },
  }),
  kernelCase({
    name: 'analysis (lines + group)',
    measures: 'begin(text) + lineTable() + groupLines(): what every processor pays before it reads a line',
    prepare: noInput,
    run(backend, text) {
      backend.begin(text);
      const lines = backend.lineTable();
      return backend.groupLines(lines.count, lines.hashA, lines.hashB);
    },
  }),
];
