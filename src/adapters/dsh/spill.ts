// The plugin's copies of originals in the harness spill store, one for the
// post-execute listener and the context engine: one save rule (never for
// `read`: a spilled read would tell the model to read the copy, a loop
// spill-policy notes too) and one record of the files written, so that reading
// one back is not compressed again.
import type { ToolExecution } from '@deepseek-ai/dsh-tools';
import { LATE, within } from '../../store/index.js';
import { describeError } from './errors.js';
import type { NoticeInput } from './ports.js';

/** The harness's spill store (`ctx.spillStore`), as far as the plugin uses it. */
export interface SpillStoreLike {
  saveText(input: {
    owner: { sessionId: string };
    source: { toolName: string; callId: string; label: string };
    suggestedName: string;
    content: string;
  }): Promise<{ locator: string; bytes: number; retrievalHint: string }>;
}

/** The harness's file reader, never spilled. */
export const READ_TOOL = 'read';

export interface SpillSource {
  readonly toolName: string;
  readonly callId: string;
  readonly sessionId: string | undefined;
}

/**
 * Longest wait for the harness's spill store to save a copy. A store that never
 * settles (a wedged disk, a plugin bug) must not hold the tool call: past this
 * the result goes on with the CCR store alone, and the ledger says so.
 */
export const SPILL_DEADLINE_MS = 2000;

export class Spills {
  /** Spill files this plugin wrote. */
  private readonly written = new Set<string>();

  /** `store` is looked up per save: the spill store may be loaded or unloaded at any time. */
  constructor(
    private readonly store: () => SpillStoreLike | undefined,
    private readonly warn: (message: string) => void,
    readonly deadlineMs = SPILL_DEADLINE_MS,
  ) {}

  /**
   * Saves an original, when there is a spill store and a session to own the
   * file. Never rejects: a failed save leaves the original with the CCR store
   * only (ccr_retrieve still gives it back). Undefined when nothing is saved,
   * LATE when the store did not answer within the deadline (the caller's
   * ledger line says what the result became).
   */
  save(source: SpillSource, text: string): Promise<NoticeInput['spill'] | typeof LATE> | undefined {
    const store = this.store();
    if (store === undefined || source.sessionId === undefined || source.toolName === READ_TOOL) return undefined;
    const saving = store.saveText({
      owner: { sessionId: source.sessionId },
      source: { toolName: source.toolName, callId: source.callId, label: 'result' },
      suggestedName: `${source.toolName}.txt`,
      content: text,
    });
    const saved = saving.then(
      (ref) => {
        this.written.add(ref.locator);
        return { locator: ref.locator, hint: ref.retrievalHint };
      },
      (error: unknown) => {
        this.warn(`squeeze: spill store could not save ${source.toolName} (${describeError(error)})`);
        return undefined;
      },
    );
    return within(saved, this.deadlineMs).then((outcome) => {
      if (outcome === LATE)
        this.warn(`squeeze: spill store did not answer within ${this.deadlineMs} ms saving ${source.toolName}`);
      return outcome;
    });
  }

  /** The call names a spill file this plugin wrote (reading the copy back). */
  readsCopy(exec: ToolExecution): boolean {
    return (
      this.written.size > 0 &&
      exec.arguments !== null &&
      typeof exec.arguments === 'object' &&
      Object.values(exec.arguments).some((value) => typeof value === 'string' && this.written.has(value))
    );
  }
}
