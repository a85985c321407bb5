// The pure-TypeScript backend: the oracle for the WebAssembly kernels, the
// fallback where WebAssembly is missing, and the benchmark's baseline.
import type { Backend, LineClasses, LineGroups, LineTable, WindowPlan, WindowRequest } from '../types.js';
import { classifyLines } from './classify.js';
import { groupLines, lineTable } from './lines.js';
import { planWindows } from './windows.js';

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

  classifyLines(lines: LineTable): LineClasses {
    return classifyLines(this.text, lines.count, lines.start, lines.end);
  }

  planWindows(request: WindowRequest): WindowPlan {
    return planWindows(request);
  }
}
