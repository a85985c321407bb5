// The fidelity evaluation: each system compresses every sample; we count
// tokens (with the best counter available), needles kept inline, needles lost
// for good, inflations and time, per folder and per type.
import type { Sample } from './samples.js';

export interface SystemOutput {
  readonly output: string;
  /** Whether a needle missing inline can still be had back (store, spill file). */
  readonly recoverable: (needle: string) => boolean;
  readonly ms: number;
}

export interface EvalSystem {
  readonly name: string;
  run(sample: Sample): Promise<SystemOutput> | SystemOutput;
}

export interface TokenCounter {
  readonly name: string;
  count(text: string): number;
}

export interface Tally {
  samples: number;
  tokensIn: number;
  tokensOut: number;
  needles: number;
  inline: number;
  lost: number;
  inflations: number;
  ms: number[];
}

export interface Report {
  readonly counter: string;
  readonly systems: readonly string[];
  /** Samples over this many input tokens also count in `over:<folder>` and `over:all`. */
  readonly overTokens?: number;
  /**
   * tallies[system][group], groups being `folder:<name>`, `type:<name>`, `all`,
   * and with `overTokens` `over:<folder>` and `over:all`.
   */
  readonly tallies: Record<string, Record<string, Tally>>;
}

function emptyTally(): Tally {
  return { samples: 0, tokensIn: 0, tokensOut: 0, needles: 0, inline: 0, lost: 0, inflations: 0, ms: [] };
}

export async function evaluate(
  samples: readonly Sample[],
  systems: readonly EvalSystem[],
  counter: TokenCounter,
  progress: (done: number, total: number, sample: Sample) => void = () => {},
  options: { overTokens?: number } = {},
): Promise<Report> {
  const tallies: Record<string, Record<string, Tally>> = {};
  for (const system of systems) tallies[system.name] = {};
  let done = 0;
  for (const sample of samples) {
    const tokensIn = counter.count(sample.text);
    for (const system of systems) {
      const result = await system.run(sample);
      const tokensOut = counter.count(result.output);
      const inline = sample.needles.filter((n) => result.output.includes(n));
      const lost = sample.needles.filter((n) => !result.output.includes(n) && !result.recoverable(n)).length;
      const over =
        options.overTokens !== undefined && tokensIn > options.overTokens ? [`over:${sample.folder}`, 'over:all'] : [];
      for (const group of [`folder:${sample.folder}`, `type:${sample.type}`, 'all', ...over]) {
        const t = (tallies[system.name]![group] ??= emptyTally());
        t.samples++;
        t.tokensIn += tokensIn;
        t.tokensOut += tokensOut;
        t.needles += sample.needles.length;
        t.inline += inline.length;
        t.lost += lost;
        if (tokensOut > tokensIn) t.inflations++;
        t.ms.push(result.ms);
      }
    }
    progress(++done, samples.length, sample);
  }
  return {
    counter: counter.name,
    systems: systems.map((s) => s.name),
    tallies,
    ...(options.overTokens !== undefined ? { overTokens: options.overTokens } : {}),
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor((sorted.length - 1) / 2)]!;
}

function pct(part: number, whole: number): string {
  return whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(1)}%`;
}

/** Token-weighted reduction: 1 - sum(out) / sum(in). */
export function reduction(t: Tally): number {
  return t.tokensIn === 0 ? 0 : 1 - t.tokensOut / t.tokensIn;
}

/** The report as markdown: one table per grouping, systems side by side. */
export function renderReport(report: Report): string {
  const groups = Object.keys(report.tallies[report.systems[0]!] ?? {});
  const ordered = [
    ...groups.filter((g) => g.startsWith('folder:')).sort(),
    ...groups.filter((g) => g.startsWith('type:')).sort(),
    'all',
  ];
  const lines = [
    `Tokens counted with ${report.counter}. Reduction is token-weighted (1 - sum out / sum in).`,
    '"inline" = needle present verbatim in the output; "lost" = neither inline nor recoverable from the system\'s retained original.',
    '',
    '| group | system | samples | tokens in | tokens out | reduction | needles | inline | lost | inflations | median ms |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const group of ordered) {
    for (const system of report.systems) {
      const t = report.tallies[system]![group];
      if (!t) continue;
      lines.push(
        `| ${group.replace(/^(folder|type):/, '$1 ')} | ${system} | ${t.samples} | ${t.tokensIn} | ${t.tokensOut} | ` +
          `${(100 * reduction(t)).toFixed(1)}% | ${t.needles} | ${t.inline} (${pct(t.inline, t.needles)}) | ${t.lost} | ` +
          `${t.inflations} | ${median(t.ms).toFixed(2)} |`,
      );
    }
  }
  return lines.join('\n');
}

/**
 * One row per folder (and all): for each system, token-weighted reduction /
 * needles inline / needles lost for good. `targets` adds a column per folder.
 */
export function renderSummary(report: Report, targets: Record<string, string> = {}): string {
  const folders = Object.keys(report.tallies[report.systems[0]!] ?? {})
    .filter((g) => g.startsWith('folder:'))
    .sort()
    .concat('all');
  const header = `| folder | target (reduction / inline) | ${report.systems.join(' | ')} |`;
  const lines = [header, `|---|---|${report.systems.map(() => '---').join('|')}|`];
  for (const group of folders) {
    const name = group.replace(/^folder:/, '');
    const cells = report.systems.map((system) => {
      const t = report.tallies[system]![group]!;
      // With overTokens: the reduction on the outputs over it, in brackets ('–' when none is).
      const over = report.tallies[system]![group === 'all' ? 'over:all' : `over:${name}`];
      const overCell =
        report.overTokens === undefined ? '' : ` (${over ? `${(100 * reduction(over)).toFixed(1)}%` : '–'})`;
      return `${(100 * reduction(t)).toFixed(1)}%${overCell} / ${pct(t.inline, t.needles)} / ${t.lost} lost`;
    });
    lines.push(`| ${name} | ${targets[name] ?? ''} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}
