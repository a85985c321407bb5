// Typed errors a processor throws when its input is not of its kind (the
// pipeline then routes the text elsewhere or keeps the original).

/** The input cannot be processed by this processor; `kind` names it. */
export class ProcessorError extends Error {
  override readonly name: string = 'ProcessorError';
  constructor(
    readonly kind: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${kind} processor: ${message}`, options);
  }
}

/** Not JSON (or JSON lines), or nested too deeply to walk safely. */
export class JsonInputError extends ProcessorError {
  override readonly name: string = 'JsonInputError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('json', message, options);
  }
}

/**
 * The call's time budget ran out inside the processor (it asked
 * ProcessorInput.expired): no other processor is tried, the pipeline returns
 * the best output it already has, at worst the emergency form.
 */
export class ProcessorTimeout extends ProcessorError {
  override readonly name: string = 'ProcessorTimeout';
}

/** Throws ProcessorTimeout when the input's time budget is spent: a processor calls it between steps of a long loop. */
export function checkDeadline(kind: string, expired: (() => boolean) | undefined): void {
  if (expired?.()) throw new ProcessorTimeout(kind, 'the time budget ran out');
}

/** A deadline check a loop over lines or records can make every iteration: the clock is read every 1,024 calls. */
export type Tick = () => void;

/** A Tick for `expired`, reading it on its first call and every 1,024th after (a clock read per line would cost more than the line). */
export function deadlineTick(kind: string, expired: (() => boolean) | undefined): Tick {
  if (!expired) return () => {};
  let calls = 0;
  return () => {
    if ((calls++ & 1023) === 0 && expired()) throw new ProcessorTimeout(kind, 'the time budget ran out');
  };
}
