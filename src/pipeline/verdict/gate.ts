// The verdict gate: the lines stating a verdict fact are demanded from the
// processors like preserved items (so a level that cuts one reverts to the
// gentler level, and the ceiling's sampling and the emergency form keep them),
// and the final output is checked for each. Demanding instead of passing the
// whole text through keeps maxTokens a ceiling; only an output that still
// lacks a fact is replaced (by the original when it fits maxTokens, else by a
// cut of the original that keeps every fact line).
import type { TextAnalysis } from '../../engine/index.js';
import { plural } from '../../processors/markers.js';
import { processors } from '../../processors/index.js';
import type { ContentKind, ProcessorOutput, TokenEstimator } from '../../types.js';
import { type CutOrder, originalLinesSource, sampleToFit } from '../ceiling.js';
import { claimOfCommand, claimOfTool, printsFiles } from '../route.js';
import type { PreservedItem } from '../preserve.js';
import type { FactKind, Verdict, VerdictFact } from './extract.js';

/** Facts demanded first when the budget cannot take them all: how the run ended, then totals, then places, then names. */
const ORDER: readonly FactKind[] = [
  'exit-status',
  'tests',
  'diagnostic-count',
  'first-error',
  'first-warning',
  'suites',
  'failing-test',
];

/** How the gate kept the verdict in the output. */
export type VerdictGate =
  /** The level the rules chose kept every fact. */
  | 'held'
  /** A harsher level lost a fact; a gentler one kept them all. */
  | 'gentler'
  /** The output lost a fact at every level: a cut of the original that keeps each fact line replaced it. */
  | 'cut'
  /** The output lost a fact at every level: the original, which fits maxTokens, replaced it. */
  | 'passed-through'
  /**
   * Some facts are not in the output (found past the token budget for demanded
   * lines): never reported as held. `notInline` counts them; the verdict line says so.
   */
  | 'incomplete';

/** A fact as the result reports it. */
export interface ReportedFact extends VerdictFact {
  /** Its line was demanded from the processors (false past the token budget for demanded lines). */
  readonly demanded: boolean;
  /** The output shows its line. */
  readonly inline: boolean;
}

/** The verdict as the result reports it. */
export interface VerdictReport extends Omit<Verdict, 'facts'> {
  readonly facts: readonly ReportedFact[];
  readonly gate: VerdictGate;
  /** Facts past the token budget for demanded lines: found, but not demanded inline. */
  readonly undemanded: number;
  /** Facts whose line the output does not show. */
  readonly notInline: number;
}

/** The tokens one demanded line costs: its text and its line break. */
const costOf = (text: string, estimator: TokenEstimator) => estimator.estimate(text) + 1;

/**
 * Tokens the fact lines may take: a third of maxTokens, or what the preserved
 * items leave of half the output's room (maxTokens less the notice and the
 * caller's reserve) when that is more: a test log with few preserved items
 * keeps its failing-test lines rather than sampled passing ones.
 */
export function verdictBudget(
  maxTokens: number,
  room: number,
  preserved: readonly PreservedItem[],
  estimator: TokenEstimator,
): number {
  const spent = preserved.reduce((sum, item) => sum + costOf(item.text, estimator), 0);
  return Math.max(Math.floor(maxTokens / 3), Math.floor(room / 2) - spent);
}

/** The verdict line, with how many facts the output does not show (` (2 facts not shown)`) when any. */
export function shownVerdictLine(verdict: Verdict, output: string): string {
  const notShown = verdict.facts.filter((fact) => !output.includes(fact.keep)).length;
  return notShown === 0 ? verdict.line : `${verdict.line}${notShownNote(notShown)}`;
}

export const notShownNote = (n: number): string => ` (${plural(n, 'fact')} not shown)`;

/**
 * The fact lines to demand, as preserved items of kind 'verdict', most
 * important first and at most `budgetTokens` in all.
 */
export function verdictItems(verdict: Verdict, estimator: TokenEstimator, budgetTokens: number): PreservedItem[] {
  const ranked = [...verdict.facts].sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind) || a.line - b.line);
  const items: PreservedItem[] = [];
  let spent = 0;
  for (const fact of ranked) {
    const cost = costOf(fact.keep, estimator);
    if (spent + cost > budgetTokens) break;
    spent += cost;
    items.push({ kind: 'verdict', text: fact.keep, line: fact.line - 1 });
  }
  return items;
}

/** The demanded fact lines an output does not carry. */
export function lostFacts(output: string, items: readonly PreservedItem[]): PreservedItem[] {
  return items.filter((item) => item.kind === 'verdict' && !output.includes(item.text));
}

/**
 * A verdict is read only from what a runner or compiler printed: the host
 * tool or the command that produced the text is one a processor of run output
 * claims (`make`, `npm test`; whatever kind the text was then given), or,
 * when neither claims it, the text was routed to such a processor (a log, or
 * text nobody claims). Never from a diff, a `git log -p`, a read, a grep, or a
 * file's contents (`cat build.log`): a fixture or a saved log there says
 * nothing about a run that happened.
 */
export function readsVerdict(
  kind: ContentKind,
  hints: { readonly toolName?: string | undefined; readonly command?: string | undefined },
): boolean {
  const { toolName, command } = hints;
  if (command !== undefined && printsFiles(command)) return false;
  const claimed =
    (toolName === undefined ? null : claimOfTool(toolName)) ??
    (command === undefined ? null : (claimOfCommand(command)?.kind ?? null));
  return processors[claimed ?? kind].runOutput === true;
}

/**
 * The original's lines cut to fit `ceiling` with every demanded line kept,
 * then `order`'s skeleton, the other preserved lines and samples (each gap a
 * marker naming its lines), or null when the demanded lines alone do not fit.
 */
export function factKeepingCut(
  analysis: TextAnalysis,
  items: readonly PreservedItem[],
  estimator: TokenEstimator,
  ceiling: number,
  order: CutOrder = {},
): ProcessorOutput | null {
  const source = originalLinesSource(analysis, items, 'lines (sampled to keep the verdict)', order);
  const cut = sampleToFit(source, estimator, ceiling);
  return cut !== null && lostFacts(cut.text, items).length === 0 ? cut : null;
}

/** The result's account of the verdict, for the output the result carries. */
export function verdictReport(
  verdict: Verdict,
  items: readonly PreservedItem[],
  gate: VerdictGate,
  output: string,
): VerdictReport {
  const demanded = new Set(items.flatMap((item) => (item.kind === 'verdict' ? [item.text] : [])));
  const facts = verdict.facts.map((fact) => ({
    ...fact,
    demanded: demanded.has(fact.keep),
    inline: output.includes(fact.keep),
  }));
  const notInline = facts.filter((fact) => !fact.inline).length;
  return {
    ...verdict,
    facts,
    gate: notInline > 0 ? 'incomplete' : gate,
    undemanded: facts.filter((fact) => !fact.demanded).length,
    notInline,
    line: notInline > 0 ? `${verdict.line}${notShownNote(notInline)}` : verdict.line,
  };
}
