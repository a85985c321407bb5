// Back-off after regret: a model that retrieves an original it was shown
// compressed says the compression cost it something. For the rest of that
// session, the same tool's results (a shell tool's: the same command) are
// compressed one level gentler than the retrieved one was: aggressive ->
// light -> lossless. Per session, in memory: a new session starts afresh.
import { gentler, gentlest, type Level, producingCommand } from '../../index.js';

/** Compressed results remembered per session, to know what a retrieved id was. */
const REMEMBERED_IDS = 4096;

/** A word that is a subcommand (`test`, `diff`, `run:all`), not a path, flag or value. */
const SUBCOMMAND = /^[a-z][\w:-]*$/i;

/**
 * What "the same tool" means for one result: the tool, and for a shell tool
 * the program and its subcommand (`bash npm test`, `bash git diff`), so that
 * `git diff HEAD~3` and `cd web && git diff main | head -50` count as one.
 */
export function backOffKey(toolName: string, command?: string): string {
  if (command === undefined) return toolName;
  const producing = producingCommand(command);
  if (producing === null) return `${toolName} ${command.trim().replace(/\s+/g, ' ')}`;
  const sub = producing.args.find((arg) => !arg.startsWith('-'));
  return `${toolName} ${producing.program}${sub !== undefined && SUBCOMMAND.test(sub) ? ` ${sub}` : ''}`;
}

interface Shown {
  readonly tool: string;
  readonly key: string;
  readonly level: Level;
}

/** What one retrieval changed: the tool, its retrievals this session, and the level its results get from now on. */
export interface Regret {
  readonly tool: string;
  readonly key: string;
  readonly retrievals: number;
  readonly level: Level;
}

/** One session's compressed results and the levels retrievals lowered. */
export class BackOff {
  private readonly shown = new Map<string, Shown>();
  private readonly caps = new Map<string, Level>();
  private readonly retrievals = new Map<string, number>();

  /** A result the model was shown compressed at `level`, under `id`. */
  compressed(id: string, tool: string, key: string, level: Level): void {
    this.shown.delete(id);
    this.shown.set(id, { tool, key, level });
    const oldest = this.shown.keys().next();
    if (this.shown.size > REMEMBERED_IDS && !oldest.done) this.shown.delete(oldest.value);
  }

  /** The model retrieved `id`: the next results of its tool one level gentler. Undefined for an id this session did not compress. */
  retrieved(id: string): Regret | undefined {
    const shown = this.shown.get(id);
    if (shown === undefined) return undefined;
    const gentlerLevel = gentler(shown.level) ?? 'lossless';
    const cap = this.caps.get(shown.key);
    // Never harsher than a cap already set: two retrievals of one result do not undo each other.
    const level = cap === undefined ? gentlerLevel : gentlest(gentlerLevel, cap);
    this.caps.set(shown.key, level);
    const retrievals = (this.retrievals.get(shown.tool) ?? 0) + 1;
    this.retrievals.set(shown.tool, retrievals);
    return { tool: shown.tool, key: shown.key, retrievals, level };
  }

  /** The level results under `key` get now, or undefined when no retrieval lowered it. */
  levelFor(key: string): Level | undefined {
    return this.caps.get(key);
  }
}
