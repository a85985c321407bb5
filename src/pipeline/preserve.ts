// Seed 001's "Decision Preservation" table, detected in tool output: content
// that is never compressed below its minimum form. Items are verbatim strings
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
  | 'decision';

export interface PreservedItem {
  readonly kind: PreservedKind;
  /** Verbatim text that must appear in the output. */
  readonly text: string;
}

/** Lines longer than this are preserved by their detected identifier, not whole. */
const MAX_LINE_CHARS = 400;

/** Vulnerability identifiers: CVE, GHSA, RUSTSEC, OSV-style, npm advisories. */
const VULN_ID = /\b(?:CVE-\d{4}-\d{4,}|GHSA(?:-[23456789cfghjmpqrvwx]{4}){3}|RUSTSEC-\d{4}-\d{4}|PYSEC-\d{4}-\d+|GO-\d{4}-\d{4,})\b/gi;

/** Line-level detectors, first match wins; each names what kind of item a line is. */
const LINE_RULES: ReadonlyArray<readonly [PreservedKind, RegExp]> = [
  ['vulnerability', /\b(?:vulnerab\w*|security advisory|severity[:=\s"]+(?:high|critical))\b/i],
  ['breaking', /\bBREAKING[ -_]CHANGES?\b|\bbreaking change\b|\bmigration (?:path|guide)\b/i],
  ['action', /^\s*(?:[-*+]\s+)?(?:\[ \]\s+|(?:TODO|FIXME|ACTION(?: ITEM)?|Action required)\b[:\s(])/],
  ['security', /\bsecurity\b.*\b(?:decid\w*|must|never|always|require[sd]?|policy)\b/i],
  ['decision', /^\s*(?:[-*+]\s+)?(?:decision:|we (?:have )?decided\b|it was decided\b)/i],
  ['preference', /^\s*(?:[-*+]\s+)?(?:user preference:|(?:i|we) (?:always |strongly )?prefer\b)/i],
  ['error-fix', /^\s*(?:=\s*)?(?:help|hint|fix|suggestion|possible fix|to fix|did you mean)\b\s*[:?]/i],
];

/** Each rule as one global, multiline scan over the whole text (far cheaper than per line). */
const LINE_SCANS = LINE_RULES.map(([kind, rule]) => [kind, new RegExp(rule.source, `${rule.flags}gm`)] as const);

function lineItems(text: string, out: PreservedItem[], seen: Set<string>): void {
  // line start -> [rule index, kind, line]; the first rule in table order wins a line.
  const hits = new Map<number, { rule: number; kind: PreservedKind; line: string }>();
  LINE_SCANS.forEach(([kind, scan], rule) => {
    for (const match of text.matchAll(scan)) {
      const from = text.lastIndexOf('\n', match.index - 1) + 1;
      const previous = hits.get(from);
      if (previous && previous.rule < rule) continue;
      let to = text.indexOf('\n', match.index);
      if (to === -1) to = text.length;
      if (to > from && text.charCodeAt(to - 1) === 13) to--;
      if (to - from > MAX_LINE_CHARS) continue;
      hits.set(from, { rule, kind, line: text.slice(from, to) });
    }
  });
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
 * Finds the items of seed 001's table in a text. Identifiers (CVE/GHSA/...) are
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
  found.push(...ids.filter((id) => !lines.some((line) => line.includes(id.text))));
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

/** The quality check of seed 001: the items missing from an output. */
export function missingItems(output: string, items: readonly PreservedItem[]): PreservedItem[] {
  return items.filter((item) => !output.includes(item.text));
}
