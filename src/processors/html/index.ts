// The HTML processor: the page's readable content as markdown-ish text (title,
// headings, paragraphs, lists, tables, code, deduplicated links), without
// scripts, styles, comments or boilerplate, preferring the <article>/<main>
// subtree when it holds most of the text. Lossless keeps all extracted
// content; light fits the budget, aggressive half of it, by dropping whole
// blocks (headings stay) with exact markers.
import { estimateFor } from '../costs.js';
import type { Processor, ProcessorInput, ProcessorOutput } from '../../types.js';
import { TAG_SAMPLE } from '../../engine/contract.js';
import type { TextAnalysis } from '../../engine/index.js';
import { checkDeadline, ProcessorError } from '../errors.js';
import {
  extract,
  MAX_NESTING_DEPTH,
  nestsDeeperThan,
  type Block,
  type Extraction,
  type Link,
  type Region,
} from './extract.js';
import { omission } from '../markers.js';
import { cutChars } from '../../text/strings.js';
import { keepPreserved } from '../keep-preserved.js';

/** A boilerplate region holding more than this share of the text is a wrapper, not chrome. */
const WRAPPER_SHARE = 0.4;
/** The main region is used when it holds at least this share of the kept text. */
const MAIN_SHARE = 0.3;
/** Share of a region's text inside links above which it reads as navigation. */
const LINK_DENSITY = 0.3;
/** Most links listed at light and aggressive (lossless lists every content link). */
const LINKS: Record<'light' | 'aggressive', number> = { light: 40, aggressive: 12 };
/** Tokens a gap marker may take, reserved with every kept block. */
const MARKER_COST = 12;

/**
 * Chrome: inside a boilerplate region that is not a page-wide wrapper. A region
 * found by class/id words only (which also name real sections: id="sharing-…")
 * must also be short or link-dense.
 */
function isChrome(region: Region | null, total: number): boolean {
  for (let r = region; r; r = r.parent) {
    if (r.text > WRAPPER_SHARE * total) continue;
    if (r.byTag || r.text < 1000 || r.linkText > LINK_DENSITY * r.text) return true;
  }
  return false;
}

/** The blocks worth reading: boilerplate out, the main region when substantial. */
function select(page: Extraction): { blocks: Block[]; links: Link[] } {
  const total = page.blocks.reduce((a, b) => a + b.text.length, 0);
  const content = page.blocks.filter((b) => !isChrome(b.boilerplate, total));
  const contentLinks = page.links.filter((l) => !isChrome(l.boilerplate, total));
  const kept = content.reduce((a, b) => a + b.text.length, 0);
  const mains = new Map<Region, number>();
  for (const b of content) if (b.main) mains.set(b.main, (mains.get(b.main) ?? 0) + b.text.length);
  const [best] = [...mains.entries()].sort((a, b) => b[1] - a[1]);
  if (best && best[1] >= MAIN_SHARE * kept && best[1] >= 300) {
    const firstMain = content.findIndex((b) => b.main === best[0]);
    const leadHeading = content.slice(0, firstMain).filter((b) => b.kind === 'heading' && b.text.startsWith('# '));
    return {
      blocks: [...leadHeading.slice(-1), ...content.filter((b) => b.main === best[0])],
      links: contentLinks.filter((l) => l.main === best[0]),
    };
  }
  return { blocks: content, links: contentLinks };
}

/**
 * `- text: href` lines, deduplicated by href; fragments and scripts left out,
 * absolute links to the page's own origin shortened to their path.
 */
function linkLines(links: Link[], origin: string | null): string[] {
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const l of links) {
    let href = l.href.trim();
    if (href === '' || href.startsWith('#') || /^(?:javascript|mailto|data):/i.test(href)) continue;
    if (origin && href.startsWith(`${origin}/`)) href = href.slice(origin.length);
    if (seen.has(href)) continue;
    seen.add(href);
    lines.push(`- ${l.text}: ${href}`);
  }
  return lines;
}

const KIND_NAMES: Record<Block['kind'], string> = {
  heading: 'heading',
  paragraph: 'paragraph',
  item: 'list item',
  code: 'code block',
  table: 'table',
};

/** A gap's breakdown with each kind pluralised by its own count. */
function pluralised(kinds: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(kinds).map(([k, n]) => [n === 1 ? k : `${k}s`, n]));
}

/**
 * Headings always; the last block if small; other blocks in order wherever
 * they fit. Each gap is one marker counting its blocks by kind.
 */
function fit(
  blocks: Block[],
  budget: number,
  estimate: (s: string) => number,
): { blocks: string[]; omitted: Record<string, number> } {
  const costs = blocks.map((b) => estimate(b.text) + 1);
  const headings = blocks.reduce((a, b, i) => a + (b.kind === 'heading' ? costs[i]! : 0), 0);
  let left = budget - headings;
  const keep = blocks.map((b) => b.kind === 'heading');
  const tailIndex = blocks.length - 1;
  const tailCost = blocks[tailIndex] && !keep[tailIndex] ? costs[tailIndex]! : 0;
  if (tailCost > 0 && tailCost <= left / 4) {
    keep[tailIndex] = true;
    left -= tailCost;
  }
  blocks.forEach((_, i) => {
    if (!keep[i] && costs[i]! + MARKER_COST <= left) {
      keep[i] = true;
      left -= costs[i]!;
    }
  });
  const out: string[] = [];
  const omitted: Record<string, number> = {};
  let gap: Record<string, number> = {};
  let gapSize = 0;
  // Headings always show: a gap is named by the heading it sits under.
  let heading = '';
  const closeGap = () => {
    const under = heading === '' ? '' : ` under "${cutChars(heading.replace(/^#+\s*/, ''), 60)}"`;
    if (gapSize > 0) out.push(omission(gapSize, `block${under}`, pluralised(gap), `blocks${under}`));
    gap = {};
    gapSize = 0;
  };
  blocks.forEach((b, i) => {
    if (keep[i]) {
      closeGap();
      if (b.kind === 'heading') heading = b.text;
      out.push(b.text);
    } else {
      const kind = KIND_NAMES[b.kind];
      gap[kind] = (gap[kind] ?? 0) + 1;
      omitted[kind] = (omitted[kind] ?? 0) + 1;
      gapSize++;
    }
  });
  closeGap();
  return { blocks: out, omitted: pluralised(omitted) };
}

function process(input: ProcessorInput): ProcessorOutput {
  if (nestsDeeperThan(input.text, MAX_NESTING_DEPTH)) {
    throw new ProcessorError('html', `markup nested deeper than ${MAX_NESTING_DEPTH} elements is compressed as text`);
  }
  let page: Extraction;
  try {
    page = extract(input.text);
  } catch (error) {
    throw new ProcessorError('html', 'the page could not be parsed', { cause: error });
  }
  checkDeadline('html', input.expired);
  const estimate = estimateFor(input);
  let { blocks, links } = select(page);
  const text = blocks.reduce((a, b) => a + b.text.length, 0);
  if (page.errors > 0 || text < 0.05 * page.visibleText || (text === 0 && page.visibleText > 0)) {
    // Extraction looks unreliable (parse trouble, or almost nothing left of the
    // page's text): keep every visible block, boilerplate included.
    blocks = page.blocks;
    links = page.links;
  }
  if (blocks.length === 0 && !page.title && !page.metaTitle)
    throw new ProcessorError('html', 'no readable text in the page');
  const omitted: Record<string, number> = {};
  // Chrome and text outside the main region leave no marker in the text, but are counted.
  if (page.blocks.length > blocks.length) omitted['boilerplate blocks'] = page.blocks.length - blocks.length;
  const head = page.title ? [`# ${page.title}`] : [];
  if (blocks[0]?.text === head[0]) blocks = blocks.slice(1);
  if (page.metaTitle && !page.title.includes(page.metaTitle) && !blocks.some((b) => b.text.includes(page.metaTitle))) {
    head.push(`# ${page.metaTitle}`);
  }
  const target = input.level === 'aggressive' ? Math.floor(input.budget / 2) : input.budget;
  const allLinks = linkLines(links, page.origin);
  let body = blocks.map((b) => b.text);
  let linkLimit = allLinks.length;
  if (input.level !== 'lossless') {
    // Text first: links get what the body leaves, up to the level's cap.
    checkDeadline('html', input.expired);
    const fitted = fit(blocks, target - estimate(head.join('\n')), estimate);
    body = fitted.blocks;
    Object.assign(omitted, fitted.omitted);
    let left = target - estimate([...head, ...body].join('\n')) - 20;
    linkLimit = 0;
    while (
      linkLimit < Math.min(allLinks.length, LINKS[input.level]) &&
      (left -= estimate(allLinks[linkLimit]!) + 1) >= 0
    )
      linkLimit++;
  }
  const linkOmitted = allLinks.length - linkLimit;
  if (linkOmitted) omitted.links = linkOmitted;
  const linkSection = allLinks.length
    ? ['', 'Links:', ...allLinks.slice(0, linkLimit), ...(linkOmitted ? [omission(linkOmitted, 'link')] : [])]
    : [];
  const output = keepPreserved([...head, ...body, ...linkSection].join('\n'), input.text, input.preserve);
  if (estimate(output) >= estimate(input.text)) return { text: input.text, omitted: {}, omissions: [] };
  return { text: output, omitted, omissions: [] };
}

/** Confidence that a text is an HTML page or fragment. */
const VOID_ELEMENTS = new Set(['br', 'hr', 'img', 'input', 'meta', 'link', 'wbr', 'source', 'col', 'area', 'base']);

function sniff(analysis: TextAnalysis): number {
  const { text } = analysis;
  // A page says what it is in its opening characters, not in any line's shape.
  const head = text.slice(0, 4096).trimStart().toLowerCase();
  if (head.startsWith('<!doctype html') || head.startsWith('<html')) return 1;
  if (/<(?:html|head|body)[\s>]/.test(head)) return 0.9;
  if (head.startsWith('<?xml')) return 0.2; // XML reports read better as text
  // Tags are at most the tag-like openings the features counted: too few of those, and no tag scan is needed.
  const { tagOpenings, sampleFeeds } = analysis.features;
  const lines = sampleFeeds + 1;
  if (tagOpenings < 5 || tagOpenings <= 0.1 * lines) return 0;
  const sample = text.slice(0, TAG_SAMPLE);
  // `<none>`, `<pending>`, `<pid>` in a table or a log are placeholders, not tags: a bare `<name>` counts
  // only when the text also closes it (`</name>`) or it is a void element; tags with attributes always count.
  const closed = new Set(Array.from(sample.matchAll(/<\/([a-z][a-z0-9]*)\s*>/gi), (m) => m[1]!.toLowerCase()));
  let tags = 0;
  for (const m of sample.matchAll(/<(\/?)([a-z][a-z0-9]*)([\s>/])/gi)) {
    const name = m[2]!.toLowerCase();
    if (m[1] === '/' || m[3] !== '>' || closed.has(name) || VOID_ELEMENTS.has(name)) tags++;
  }
  if (tags >= 20 && tags / lines > 0.5) return 0.7;
  return tags >= 5 && tags / lines > 0.1 ? 0.3 : 0;
}

export const htmlProcessor: Processor = {
  kind: 'html',
  lineShaped: false,
  losslessUpToMax: true,
  fileExtensions: ['html', 'htm', 'xhtml'],
  sniff,
  process,
};
