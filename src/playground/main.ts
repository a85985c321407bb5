// The playground page's logic: the controls, the samples, and a compress run
// (debounced) whenever the input or a setting changes. Everything runs here in
// the page: the WebAssembly core and the pipeline are bundled into it.
import { demoSample } from '../demo/sample.js';
import { createSqueeze, DEFAULTS, type CompressResult } from '../pipeline/index.js';
import { LEVELS } from '../pipeline/levels.js';
import { count } from '../text/strings.js';
import { CONTENT_KINDS } from '../types.js';
import { PageStore } from './page-store.js';
import { renderOriginal, renderView } from './render.js';
import { segments } from './segments.js';
import { viewLines } from './view.js';

interface Sample {
  readonly label: string;
  readonly command: string;
  readonly text: string;
}

const DEBOUNCE_MS = 250;

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const input = byId<HTMLTextAreaElement>('input');
const original = byId<HTMLElement>('original');
const output = byId<HTMLElement>('output');
const tokens = byId<HTMLElement>('tokens');
const verdict = byId<HTMLElement>('verdict');
const sample = byId<HTMLSelectElement>('sample');
const kind = byId<HTMLSelectElement>('kind');
const level = byId<HTMLSelectElement>('level');
const command = byId<HTMLInputElement>('command');
const maxTokens = byId<HTMLInputElement>('max-tokens');

const store = new PageStore();
// No recent results: rerunning the same text must not turn it into a reference to the last run.
const squeeze = createSqueeze({ store, recentResults: 0, retrieval: { tool: 'ccr_retrieve' } });

const samples: Sample[] = [
  { label: 'CI run (squeeze demo)', command: '', text: demoSample() },
  ...(JSON.parse(byId('samples').textContent ?? '[]') as Sample[]),
];

function options(select: HTMLSelectElement, values: readonly string[]): void {
  select.append(...values.map((value) => new Option(value, value)));
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '0%' : `${((100 * part) / whole).toFixed(1)}%`;
}

function summary(result: CompressResult): string {
  const saved = result.tokensIn - result.tokensOut;
  return (
    `tokens in ${count(result.tokensIn)} · out ${count(result.tokensOut)} · saved ${count(saved)} ` +
    `(${percent(saved, result.tokensIn)}) — ${result.outcome}, ${result.kind} processor, ${result.level} level, ` +
    `${result.backend} backend, ${result.ms.toFixed(0)} ms`
  );
}

function show(text: string, result: CompressResult): void {
  tokens.textContent = summary(result);
  verdict.textContent = result.verdict ? `[${result.verdict.line}]` : 'no verdict line: none read from this output';
  renderOriginal(original, segments(text, result.omissions), output);
  renderView(output, viewLines(result.output, result.omissions), original);
}

let generation = 0;

async function compressNow(): Promise<void> {
  const mine = ++generation;
  const text = input.value;
  const line = command.value.trim();
  const ceiling = Number(maxTokens.value);
  try {
    await store.prepare(text);
    if (mine !== generation) return; // a newer edit is on its way
    const result = squeeze.compress(text, {
      kind: kind.value as (typeof CONTENT_KINDS)[number] | 'auto',
      level: level.value as (typeof LEVELS)[number] | 'auto',
      // The budgets under the ceiling follow it down, so any maxTokens is a valid setting.
      maxTokens: ceiling,
      targetTokens: Math.min(DEFAULTS.targetTokens, ceiling),
      minTokens: Math.min(DEFAULTS.minTokens, ceiling),
      ...(line ? { toolName: 'bash', command: line } : {}),
    });
    show(text, result);
  } catch (error) {
    // A setting out of range (OptionsError), or no WebCrypto (a page served from elsewhere than
    // file:// or a loopback address is not a secure context): say so where the counts go.
    tokens.textContent = `cannot compress: ${(error as Error).message}`;
  }
}

let timer: ReturnType<typeof setTimeout> | undefined;
function schedule(): void {
  clearTimeout(timer);
  timer = setTimeout(() => void compressNow(), DEBOUNCE_MS);
}

function load(index: number): void {
  const chosen = samples[index];
  if (!chosen) return;
  sample.value = String(index);
  input.value = chosen.text;
  command.value = chosen.command;
  schedule();
}

options(kind, ['auto', ...CONTENT_KINDS]);
options(level, ['auto', ...LEVELS]);
sample.append(new Option('your own (pasted or dropped)', ''), ...samples.map((s, i) => new Option(s.label, String(i))));
sample.addEventListener('change', () => {
  if (sample.value !== '') load(Number(sample.value));
});
input.addEventListener('input', () => {
  sample.value = '';
});
for (const control of [input, command, maxTokens]) control.addEventListener('input', schedule);
for (const control of [kind, level]) control.addEventListener('change', schedule);
input.addEventListener('dragover', (event) => event.preventDefault());
input.addEventListener('drop', (event) => {
  const file = event.dataTransfer?.files[0];
  if (!file) return;
  event.preventDefault();
  void file.text().then((text) => {
    input.value = text;
    sample.value = '';
    schedule();
  });
});
load(0);
