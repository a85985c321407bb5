// The prose strategies of the lossless and light levels as rules: filler phrases with their shorter
// forms, ordinal fillers at the head of list items, and what a code signature
// or a data line looks like (neither is ever rewritten).

/** [pattern, replacement]; at a sentence start the result is capitalised (see replaceFiller). */
export const FILLER: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bit is (?:important|worth) (?:to note|noting|mentioning) that /gi, ''],
  [/\bit should be noted that /gi, ''],
  [/\bplease note that /gi, ''],
  [/\bI would recommend that you consider /gi, 'consider '],
  [/\bI would (?:recommend|suggest) that you /gi, ''],
  [/\bin order to /gi, 'to '],
  [/\bdue to the fact that /gi, 'because '],
  [/\bin spite of the fact that /gi, 'although '],
  [/\bin the event that /gi, 'if '],
  [/\bat this point in time\b/gi, 'now'],
  [/\bfor the purpose of /gi, 'for '],
  [/\bwith regard to /gi, 'about '],
  [/\bhas the ability to /gi, 'can '],
  [/\ba large number of /gi, 'many '],
  [/(?<=^|[.!?]\s+)(?:basically|essentially|actually|obviously), /gi, ''],
];

/** "- First, create …" -> "- Create …": ordinal fillers at the head of list items. */
export const LIST_ITEM = /^(\s*(?:[-*+]|\d+[.)])\s+)(?:first(?:ly)?|second(?:ly)?|third(?:ly)?|next|then|finally|lastly|also|additionally),?\s+(\S)/i;

/** Lines that carry data rather than prose: never rewritten. */
export function looksLikeData(line: string): boolean {
  if (/^\s{4}|\t|^\s*[|>#]|[{}[\];=<>$`\\]|^\s*[\w.-]+:\s|https?:\/\/|\b\d{3,}\b/.test(line)) return true;
  const letters = (line.match(/[A-Za-z\s]/g) ?? []).length;
  return letters < 0.85 * line.length || line.trim().split(/\s+/).length < 5;
}

const SIGNATURE =
  /^\s*(?:export\s|public\s|private\s|protected\s|static\s|async\s|def\s|class\s|function\b|fn\s|func\s|interface\s|type\s|struct\s|impl\b|enum\s|module\s|package\s|import\s|from\s|#include|@\w|const\s+\w+\s*=\s*(?:async\s*)?\(|(?:pub\s+)?(?:fn|struct|enum|trait|mod)\s)/;

/** A code line worth keeping when a block is cut to its signatures. */
export function isSignature(line: string, minIndent: number): boolean {
  if (SIGNATURE.test(line)) return true;
  const indent = /^\s*/.exec(line)![0].length;
  return indent <= minIndent && /[{:]\s*$/.test(line);
}

/** Lines kept first when a text is still over budget: errors and their kin... */
export const STRONG_EVIDENCE = /\b(?:error|errors|fail(?:ed|ure|s)?|exception|fatal|panic|denied|critical|security|vulnerab\w*|CVE-\d+)\b|Error\b|Exception\b/i;
/** ...then warnings and other lines that ask for attention. */
export const EVIDENCE = /\b(?:warn(?:ing)?|deprecated|breaking|TODO|FIXME|must|never)\b/i;

const SENTENCE_START = /(?:^\s*(?:(?:[-*+]|\d+[.)])\s+)?|[.!?]\s+)$/;

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** One filler rule applied to a line; a sentence start stays capitalised. Returns the text and the number of matches. */
export function replaceFiller(text: string, pattern: RegExp, replacement: string): [string, number] {
  let out = '';
  let last = 0;
  let n = 0;
  let capitaliseNext = false;
  for (const m of text.matchAll(pattern)) {
    const at = m.index;
    const between = text.slice(last, at);
    out += capitaliseNext ? capitalise(between) : between;
    const atStart = SENTENCE_START.test(text.slice(0, at));
    capitaliseNext = atStart && replacement === '';
    out += atStart ? capitalise(replacement) : replacement;
    last = at + m[0].length;
    n++;
  }
  const rest = text.slice(last);
  return [out + (capitaliseNext ? capitalise(rest) : rest), n];
}
