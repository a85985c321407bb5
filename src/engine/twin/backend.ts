// The pure-TypeScript backend: the oracle for the WebAssembly kernels, the
// fallback where WebAssembly is missing, and the benchmark's baseline.
import type { Backend, LineGroups, LineTable, LineTokens } from '../types.js';
import { groupLines, lineTable } from './lines.js';
import { estimateTokens, lineTokens } from './tokens.js';

export class JsBackend implements Backend {
  readonly name = 'js' as const;
  text = '';

  begin(text: string): void {
    this.text = text;
  }

  lineTable(): LineTable {
    return lineTable(this.text);
  }

  groupLines(count: number, hashA: Uint32Array, hashB: Uint32Array): LineGroups {
    return groupLines(count, hashA, hashB);
  }

  estimateTokens(costs: Int32Array): number {
    return estimateTokens(this.text, costs);
  }

  lineTokens(count: number, start: Int32Array, end: Int32Array, costs: Int32Array): LineTokens {
    return lineTokens(this.text, start, end, count, costs);
  }
}
