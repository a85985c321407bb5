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
