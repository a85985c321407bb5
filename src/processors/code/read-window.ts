/**
 * The read tool's own window: it never returns more file lines, or more bytes
 * of them (without their `N: ` prefixes, a line break between each), per call.
 */
export const READ_WINDOW = { lines: 2000, bytes: 51_200 } as const;
