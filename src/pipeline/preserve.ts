// Preserved items (docs/GLOSSARY.md) detected in tool output: content that is
// never compressed below its minimum form. Items are verbatim strings
// (whole lines for line-shaped text, identifiers inside JSON/HTML); the
// processors must keep them and the quality check verifies they survived.
import type { TextAnalysis } from '../engine/analysis.js';
import { LineFlag } from '../engine/flags.js';
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
  /** Index of the line it was found on (its first occurrence). */
  readonly line: number;
}

/** Lines longer than this are preserved by their detected identifier, not whole. */
const MAX_LINE_CHARS = 400;

/** Vulnerability identifiers: CVE, GHSA, RUSTSEC, OSV-style, npm advisories. */
const VULN_ID =
  /\b(?:CVE-\d{4}-\d{4,}|GHSA(?:-[23456789cfghjmpqrvwx]{4}){3}|RUSTSEC-\d{4}-\d{4}|PYSEC-\d{4}-\d+|GO-\d{4}-\d{4,})\b/gi;

/**
 * Line-level detectors, the best rank wins; each names what kind of item a
 * line is. Each runs over one line (cued by the classify kernel), multiline as
 * it ran over the whole text, so `^` still matches after U+2028.
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

/** Every rule's pattern: the cue test checks that the classify kernel cues each line one matches. */
export const PRESERVE_RULES: readonly RegExp[] = [...SCANS.map((rule) => rule.scan), VULN_ID];

/** Lines some rule may match: a cue word or box (the classify kernel's PreserveCue), or ANSI escapes, which the kernel reads past and the rules do not. */
export const CUED = LineFlag.PreserveCue | LineFlag.Ansi;

function lineItems(analysis: TextAnalysis, out: PreservedItem[], seen: Set<string>): void {
  const { count, start, end } = analysis.lines;
  const flags = analysis.classes.flags;
  for (let i = 0; i < count; i++) {
    if ((flags[i]! & CUED) === 0 || end[i]! - start[i]! > MAX_LINE_CHARS) continue;
    const line = analysis.line(i);
    // The best-ranked rule matching the line (a rule may match more than once: `^` after U+2028).
    let best: PreservedKind | null = null;
    let bestRank = Number.POSITIVE_INFINITY;
    for (const { scan, classify } of SCANS) {
      for (const match of line.matchAll(scan)) {
        const [kind, rank] = classify(match);
        if (rank < bestRank) [best, bestRank] = [kind, rank];
      }
    }
    if (best === null) continue;
    const trimmed = line.trim();
    if (trimmed.length >= 4 && !seen.has(trimmed)) {
      seen.add(trimmed);
      out.push({ kind: best, text: trimmed, line: i });
    }
  }
}

function identifierItems(analysis: TextAnalysis, out: PreservedItem[], seen: Set<string>): void {
  const { count } = analysis.lines;
  const flags = analysis.classes.flags;
  for (let i = 0; i < count; i++) {
    if ((flags[i]! & CUED) === 0) continue;
    for (const match of analysis.line(i).matchAll(VULN_ID)) {
      const id = match[0];
      if (!seen.has(id)) {
        seen.add(id);
        out.push({ kind: 'vulnerability', text: id, line: i });
      }
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
  analysis: TextAnalysis,
  lineShaped: boolean,
  estimator: TokenEstimator,
  budgetTokens: number,
): { items: PreservedItem[]; dropped: number } {
  const found: PreservedItem[] = [];
  const seen = new Set<string>();
  if (lineShaped) lineItems(analysis, found, seen);
  // An identifier already inside a preserved line needs no item of its own.
  const lines = found.map((item) => item.text);
  const ids: PreservedItem[] = [];
  identifierItems(analysis, ids, seen);
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
