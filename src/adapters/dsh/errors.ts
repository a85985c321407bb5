/** An error as one line for a warning: `TypeError: message`, or the thrown value as text. */
export function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
