// The two panes as DOM: the original with each omitted span shaded under a
// label naming its lines, and the model's view with every marker a link to the
// span it names. The original's lines go in as blocks of CHUNK_LINES lines the
// browser lays out only when scrolled near (content-visibility), so a 1 MB
// original is a few hundred nodes and a fraction of a second of layout.
import type { Omission } from '../processors/markers.js';
import { rangeLabel, type Segment } from './segments.js';
import type { ViewLine } from './view.js';

/** Lines per block of the original: small enough to skip, big enough to keep the node count low. */
const CHUNK_LINES = 200;

const spanId = (start: number) => `original-${start}`;
const markerId = (start: number) => `marker-${start}`;

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string) {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Scrolls `target` to the top of its pane and flashes it, so the eye finds it. */
function reveal(target: HTMLElement | null, pane: HTMLElement): void {
  if (!target) return;
  pane.scrollTop += target.getBoundingClientRect().top - pane.getBoundingClientRect().top;
  target.classList.remove('flash');
  void target.offsetWidth; // restarts the animation on a second click
  target.classList.add('flash');
}

/**
 * The text as blocks of up to CHUNK_LINES lines, each sized by its line count
 * before it is laid out. Lines split by squeeze's rule (LF, CRLF or a lone CR)
 * and shown one per row, as the markers count them.
 */
function chunks(text: string): HTMLElement[] {
  const lines = text.split(/\r\n?|\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  const blocks: HTMLElement[] = [];
  for (let i = 0; i < lines.length; i += CHUNK_LINES) {
    const part = lines.slice(i, i + CHUNK_LINES);
    const block = element('div', 'chunk', `${part.join('\n')}\n`);
    block.style.setProperty('--lines', String(part.length));
    blocks.push(block);
  }
  return blocks;
}

export function renderOriginal(pane: HTMLElement, parts: readonly Segment[], view: HTMLElement): void {
  const fragment = document.createDocumentFragment();
  for (const part of parts) {
    if (part.kind === 'shown') {
      fragment.append(...chunks(part.text));
      continue;
    }
    const block = element('div', part.kind);
    block.id = spanId(part.start);
    const what = part.kind === 'omitted' ? 'not shown to the model' : 'identical lines, shown once';
    const label = element('button', 'label', `${rangeLabel(part)}: ${what}`);
    label.type = 'button';
    label.addEventListener('click', () => reveal(document.getElementById(markerId(part.start)), view));
    const lines = element('div', 'lines');
    lines.append(...chunks(part.text));
    block.append(label, lines);
    fragment.append(block);
  }
  pane.replaceChildren(fragment);
}

export function renderView(pane: HTMLElement, lines: readonly ViewLine[], original: HTMLElement): void {
  const fragment = document.createDocumentFragment();
  let plain: string[] = [];
  const flush = () => {
    if (plain.length > 0) fragment.append(`${plain.join('\n')}\n`);
    plain = [];
  };
  for (const line of lines) {
    if (!line.role) {
      plain.push(line.text);
      continue;
    }
    flush();
    const span: Omission | undefined = line.span;
    const node = element(span ? 'button' : 'span', line.role, line.text);
    if (span) {
      node.id = markerId(span.start);
      node.title = `show ${rangeLabel(span)} in the original`;
      node.dataset.start = String(span.start);
      node.addEventListener('click', () => reveal(document.getElementById(spanId(span.start)), original));
    }
    fragment.append(node, '\n');
  }
  flush();
  pane.replaceChildren(fragment);
}
