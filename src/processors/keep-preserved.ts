// Preserved strings (security findings, action items... found by the pipeline)
// must reach the output verbatim. A processor that re-renders its input can
// lose one (entities decoded, JSON re-quoted); those are appended as they were.

/** The output, plus any preserved string of the original that it lost. */
export function keepPreserved(output: string, original: string, preserve: readonly string[]): string {
  const missing = [...new Set(preserve)].filter((p) => p !== '' && original.includes(p) && !output.includes(p));
  if (missing.length === 0) return output;
  return [output, '', 'Preserved verbatim:', ...missing].join('\n');
}
