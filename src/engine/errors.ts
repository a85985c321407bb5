/** Raised when the WebAssembly backend is demanded but cannot run here. */
export class EngineError extends Error {
  override readonly name = 'EngineError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
