// What the text processor keeps first when it must cut: code signatures in a
// long fenced block, and lines that read as evidence (errors, then warnings).

const SIGNATURE =
  /^\s*(?:export\s|public\s|private\s|protected\s|static\s|async\s|def\s|class\s|function\b|fn\s|func\s|interface\s|type\s|struct\s|impl\b|enum\s|module\s|package\s|import\s|from\s|#include|@\w|const\s+\w+\s*=\s*(?:async\s*)?\(|(?:pub\s+)?(?:fn|struct|enum|trait|mod)\s)/;

/** A code line worth keeping when a block is cut to its signatures. */
export function isSignature(line: string, minIndent: number): boolean {
  if (SIGNATURE.test(line)) return true;
  const indent = /^\s*/.exec(line)![0].length;
  return indent <= minIndent && /[{:]\s*$/.test(line);
}

/** Lines kept first when a text is still over budget: errors and their kin... */
export const STRONG_EVIDENCE =
  /\b(?:error|errors|fail(?:ed|ure|s)?|exception|fatal|panic|denied|critical|security|vulnerab\w*|CVE-\d+)\b|Error\b|Exception\b/i;
/** ...then warnings and other lines that ask for attention. */
export const EVIDENCE = /\b(?:warn(?:ing)?|deprecated|breaking|TODO|FIXME|must|never)\b/i;
