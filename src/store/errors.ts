// The store's typed errors. StoreError: a bad option or a text the store cannot
// keep faithfully. StoreUnavailableError: the store could not keep or read an
// original (unsafe folder, read-only, full, busy, corrupt, unreachable); callers
// must then not hand out an id as if it were stored.

export class StoreError extends Error {
  override readonly name: string = 'StoreError';
}

export type UnavailableReason =
  | 'unsafe'
  | 'cannot-open'
  | 'read-only'
  | 'full'
  | 'busy'
  | 'corrupt'
  | 'unreachable'
  | 'failed';

export class StoreUnavailableError extends StoreError {
  override readonly name = 'StoreUnavailableError';
  constructor(
    readonly reason: UnavailableReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
