// `git blame` lines, which three processors must tell apart: the code
// processor claims them (a file's lines, each under its commit), and the log
// and git log sniffers must not take their dates for timestamps or their
// hashes for commits.

/**
 * A `git blame` line with its author's date and time:
 * `9494a32a (Dana Kowalski 2025-03-06 21:12:00 +0000 12) ` (a file name after
 * the hash with -C). What the sniffers of other kinds look for to step aside.
 */
export const DATED_BLAME_LINE = /^\^?[0-9a-f]{7,40} (?:\S+ +)?\([^)]*\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4} +\d+\) /;

/**
 * The prefix a blame line puts before the file's line, whatever its date
 * format: `9494a32a (Dana Kowalski 2025-03-06 21:12:00 +0000 12) `, or git
 * annotate's `9494a32a\t(Dana Kowalski\t2025-03-06 21:12:00 +0000\t12)`. Not
 * `blame -s` (`9494a32a  12) `): its lone `)` in every line would read as
 * brackets closing.
 */
export const BLAME_PREFIX = /^\^?[0-9a-f]{7,40}(?: (?:\S+ +)?\([^()]* \d+\) |\t\([^()]*\t\d+\))/;
