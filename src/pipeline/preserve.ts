// Preserved items (docs/GLOSSARY.md) detected in tool output: content that is
// never compressed below its minimum form. Items are verbatim strings
// (whole lines for line-shaped text, identifiers inside JSON/HTML); the
// processors must keep them and the quality check verifies they survived.
import type { TokenEstimator } from '../types.js';

export type PreservedKind =
  | 'vulnerability'
  | 'security'
  | 'action'
  | 'breaking'
  | 'error-fix'
  | 'preference'
  | 'decision'
  /** A line stating a test or build verdict (see verdict/gate.ts). */
  | 'verdict';

export interface PreservedItem {
  readonly kind: PreservedKind;
  /** Verbatim text that must appear in the output. */
  readonly text: string;
}

/** Lines longer than this are preserved by their detected identifier, not whole. */
const MAX_LINE_CHARS = 400;

/** Vulnerability identifiers: CVE, GHSA, RUSTSEC, OSV-style, npm advisories. */
const VULN_ID =
  /\b(?:CVE-\d{4}-\d{4,}|GHSA(?:-[23456789cfghjmpqrvwx]{4}){3}|RUSTSEC-\d{4}-\d{4}|PYSEC-\d{4}-\d+|GO-\d{4}-\d{4,})\b/gi;

/**
 * Line-level detectors, first match wins; each names what kind of item a line
 * is. Blanks are [ \t], never \s: the rules run as multiline scans over the
 * whole text, where \s would run across line breaks (quadratic on blank runs).
 */
interface Scan {
  readonly scan: RegExp;
  /** The matched line's kind and its rank (a lower rank wins a line matched twice). */
  classify(match: RegExpMatchArray): readonly [PreservedKind, number];
}

const plain = (kind: PreservedKind, rank: number, rule: RegExp): Scan => ({
  scan: new RegExp(rule.source, `${rule.flags}gm`),
  classify: () => [kind, rank],
});

const SCANS: readonly Scan[] = [
  plain('vulnerability', 0, /\b(?:vulnerab\w*|security advisory|severity[:= \t"]+(?:high|critical))\b/i),
  plain('breaking', 1, /\bBREAKING[ -_]CHANGES?\b|\bbreaking change\b|\bmigration (?:path|guide)\b/i),
  plain('action', 2, /^[ \t]*(?:[-*+][ \t]+)?(?:\[ \][ \t]+|(?:TODO|FIXME|ACTION(?: ITEM)?|Action required)\b[: \t(])/),
  plain('security', 3, /\bsecurity\b.*\b(?:decid\w*|must|never|always|require[sd]?|policy)\b/i),
  {
    // Three case-insensitive rules anchored at a line's start share one scan.
    scan: /^[ \t]*(?:(?:[-*+][ \t]+)?(?:(?<decision>decision:|we (?:have )?decided\b|it was decided\b)|(?<preference>user preference:|(?:i|we) (?:always |strongly )?prefer\b))|(?:=[ \t]*)?(?<fix>help|hint|fix|suggestion|possible fix|to fix|did you mean)\b[ \t]*[:?])/gim,
    classify: (match) =>
      match.groups?.decision ? ['decision', 4] : match.groups?.preference ? ['preference', 5] : ['error-fix', 6],
  },
];

/**
 * The line (breaks as in the line table: LF, CRLF, lone CR) around `at`, as
 * [from, to), or null when it is longer than MAX_LINE_CHARS. Looks no further
 * than that either way, so many matches in one huge line cost no rescans.
 */
function lineAround(text: string, at: number): [number, number] | null {
  const floor = Math.max(0, at - MAX_LINE_CHARS - 1);
  let from = at;
  while (from > floor && text.charCodeAt(from - 1) !== 10 && text.charCodeAt(from - 1) !== 13) from--;
  if (from > 0 && from === floor && text.charCodeAt(from - 1) !== 10 && text.charCodeAt(from - 1) !== 13) return null;
  const ceiling = Math.min(text.length, from + MAX_LINE_CHARS + 1);
  let to = at;
  while (to < ceiling && text.charCodeAt(to) !== 10 && text.charCodeAt(to) !== 13) to++;
  return to - from > MAX_LINE_CHARS ? null : [from, to];
}

function lineItems(text: string, out: PreservedItem[], seen: Set<string>): void {
  // line start -> the best-ranked rule matching that line
  const hits = new Map<number, { rank: number; kind: PreservedKind; line: string }>();
  for (const { scan, classify } of SCANS) {
    for (const match of text.matchAll(scan)) {
      const [kind, rank] = classify(match);
      const line = lineAround(text, match.index);
      if (line === null) continue;
      const [from, to] = line;
      const previous = hits.get(from);
      if (previous && previous.rank <= rank) continue;
      hits.set(from, { rank, kind, line: text.slice(from, to) });
    }
  }
  for (const from of [...hits.keys()].sort((a, b) => a - b)) {
    const { kind, line } = hits.get(from)!;
    const trimmed = line.trim();
    if (trimmed.length >= 4 && !seen.has(trimmed)) {
      seen.add(trimmed);
      out.push({ kind, text: trimmed });
    }
  }
}

function identifierItems(text: string, out: PreservedItem[], seen: Set<string>): void {
  for (const match of text.matchAll(VULN_ID)) {
    const id = match[0];
    if (!seen.has(id)) {
      seen.add(id);
      out.push({ kind: 'vulnerability', text: id });
    }
  }
}

/**
 * Finds the preserved items in a text. Identifiers (CVE/GHSA/...) are
 * found everywhere; whole lines only in line-shaped text (`lineShaped`).
 * The total is capped at `budgetTokens` (first come, first kept) so a text made
 * of thousands of matching lines cannot defeat compression; `dropped` counts the rest.
 */
export function detectPreserved(
  text: string,
  lineShaped: boolean,
  estimator: TokenEstimator,
  budgetTokens: number,
): { items: PreservedItem[]; dropped: number } {
  const found: PreservedItem[] = [];
  const seen = new Set<string>();
  if (lineShaped) lineItems(text, found, seen);
  // An identifier already inside a preserved line needs no item of its own.
  const lines = found.map((item) => item.text);
  const ids: PreservedItem[] = [];
  identifierItems(text, ids, seen);
  for (const id of ids) if (!lines.some((line) => line.includes(id.text))) found.push(id);
  const items: PreservedItem[] = [];
  let spent = 0;
  for (const item of found) {
    const cost = estimator.estimate(item.text) + 1;
    if (spent + cost > budgetTokens) break;
    spent += cost;
    items.push(item);
  }
  return { items, dropped: found.length - items.length };
}

/** The quality check: the items missing from an output. */
export function missingItems(output: string, items: readonly PreservedItem[]): PreservedItem[] {
  return items.filter((item) => !output.includes(item.text));
}
