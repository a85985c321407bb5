// Which old tool results the context engine replaces in one rewrite. Pure: the
// surface is handed in as a list of result nodes, oldest first.

export interface WindowConfig {
  /** Results of the first N turns are never replaced (a task's setup). */
  readonly protectFirstTurns: number;
  /** Results of the last N turns, the current one included, are never replaced. */
  readonly protectLastTurns: number;
  /**
   * The last N tool results on the surface are never replaced, whatever their
   * turn: one user turn of a coding agent often runs 40 tool steps.
   */
  readonly protectRecentResults: number;
}

/** One `tool/result` node on the model-facing surface. */
export interface ResultNode {
  readonly seq: number;
  readonly turn: number;
  /** False when the engine may not touch it: already replaced, opted out, failed, unknown. */
  readonly replaceable: boolean;
}

/** The replaceable nodes outside the protected window, oldest first. */
export function selectBatch<T extends ResultNode>(nodes: readonly T[], currentTurn: number, config: WindowConfig): T[] {
  const recentFrom = nodes.length - config.protectRecentResults;
  const out: T[] = [];
  for (const [index, node] of nodes.entries()) {
    if (!node.replaceable || index >= recentFrom) continue;
    if (node.turn <= config.protectFirstTurns || node.turn > currentTurn - config.protectLastTurns) continue;
    out.push(node);
  }
  return out;
}
