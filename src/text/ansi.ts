// Terminal escape sequences: CSI (SGR colours, cursor moves, erases), OSC
// (titles, hyperlinks) and two-character escapes. They format a terminal and
// say nothing to a model reading the text.

/** One escape sequence (global: replace every one). */
export const TERMINAL_CODE = /\u001b(?:\[[0-9;?]*[ -/]*[@-~]|\][^\u0007\u001b\n]*(?:\u0007|\u001b\\)|[@-Z\\-_])/g;

/** The text with its terminal escape sequences removed. */
export function withoutTerminalCodes(text: string): string {
  return text.replace(TERMINAL_CODE, '');
}
