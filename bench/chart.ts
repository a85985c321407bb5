// bench/results.svg, drawn by hand: grouped bars of MB/s per kernel and input
// size, WebAssembly beside the twin, on a log scale.

export interface ChartRow {
  readonly kernel: string;
  readonly size: string;
  readonly wasm: number;
  readonly twin: number;
}

const COLORS = { wasm: '#5b4bd6', twin: '#e08a1e' };
const BAR = 11;
const PAIR_GAP = 12;
const KERNEL_GAP = 26;
const MIN_WIDTH = 720;
const LEFT = 64;
const TOP = 52;
const PLOT_HEIGHT = 300;
const BOTTOM = 110;

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function fmt(value: number): string {
  return value >= 1 ? String(Math.round(value * 100) / 100) : value.toPrecision(2);
}

export function renderChart(rows: readonly ChartRow[], title: string): string {
  const values = rows.flatMap((r) => [r.wasm, r.twin]).filter((v) => v > 0);
  const lo = Math.floor(Math.log10(Math.min(...values)));
  const hi = Math.ceil(Math.log10(Math.max(...values)));
  const y = (v: number): number => TOP + PLOT_HEIGHT - ((Math.log10(v) - lo) / (hi - lo)) * PLOT_HEIGHT;

  const kernels = [...new Set(rows.map((r) => r.kernel))];
  const parts: string[] = [];
  let x = LEFT + 12;
  for (const kernel of kernels) {
    const mine = rows.filter((r) => r.kernel === kernel);
    const from = x;
    for (const row of mine) {
      for (const [which, value] of [
        ['wasm', row.wasm],
        ['twin', row.twin],
      ] as const) {
        const top = y(Math.max(value, 10 ** lo));
        parts.push(
          `<rect x="${x}" y="${top.toFixed(1)}" width="${BAR}" height="${(TOP + PLOT_HEIGHT - top).toFixed(1)}" fill="${COLORS[which]}">` +
            `<title>${escapeXml(`${kernel}, ${row.size}, ${which}: ${fmt(value)} MB/s`)}</title></rect>`,
        );
        x += BAR;
      }
      parts.push(
        `<text x="${x - BAR}" y="${TOP + PLOT_HEIGHT + 12}" font-size="8" text-anchor="middle">${escapeXml(row.size)}</text>`,
      );
      x += PAIR_GAP;
    }
    const mid = (from + x - PAIR_GAP) / 2;
    parts.push(
      `<text x="${mid}" y="${TOP + PLOT_HEIGHT + 28}" font-size="10" text-anchor="end" transform="rotate(-25 ${mid} ${TOP + PLOT_HEIGHT + 28})">${escapeXml(kernel)}</text>`,
    );
    x += KERNEL_GAP;
  }
  const width = Math.max(MIN_WIDTH, x + 20);

  const grid: string[] = [];
  for (let e = lo; e <= hi; e++) {
    const gy = y(10 ** e).toFixed(1);
    grid.push(`<line x1="${LEFT}" y1="${gy}" x2="${width - 10}" y2="${gy}" stroke="#ddd"/>`);
    grid.push(`<text x="${LEFT - 6}" y="${Number(gy) + 3}" font-size="10" text-anchor="end">${fmt(10 ** e)}</text>`);
  }

  const height = TOP + PLOT_HEIGHT + BOTTOM;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${LEFT}" y="20" font-size="13" font-weight="bold">${escapeXml(title)}</text>`,
    `<rect x="${LEFT}" y="28" width="10" height="10" fill="${COLORS.wasm}"/><text x="${LEFT + 14}" y="37" font-size="11">WebAssembly (incl. copy in and out)</text>`,
    `<rect x="${LEFT + 230}" y="28" width="10" height="10" fill="${COLORS.twin}"/><text x="${LEFT + 244}" y="37" font-size="11">TypeScript twin</text>`,
    `<text x="14" y="${TOP + PLOT_HEIGHT / 2}" font-size="11" transform="rotate(-90 14 ${TOP + PLOT_HEIGHT / 2})" text-anchor="middle">MB/s (log scale)</text>`,
    ...grid,
    `<line x1="${LEFT}" y1="${TOP}" x2="${LEFT}" y2="${TOP + PLOT_HEIGHT}" stroke="#333"/>`,
    `<line x1="${LEFT}" y1="${TOP + PLOT_HEIGHT}" x2="${width - 10}" y2="${TOP + PLOT_HEIGHT}" stroke="#333"/>`,
    ...parts,
    '</svg>',
    '',
  ].join('\n');
}
