// Hostile tool outputs (issue: bounded work on hostile input), shared by the
// benchmarks and the hostile-input tests.
const MB = 1024 * 1024;

export const HOSTILE: Record<string, () => string> = {
  'nested divs (2e5)': () => `<html><body>${'<div>'.repeat(200_000)}deep${'</div>'.repeat(200_000)}</body></html>`,
  'JSON, 1e6 keys': () => {
    const parts: string[] = [];
    for (let i = 0; i < 1_000_000; i++) parts.push(`"key${i}":${i}`);
    return `{${parts.join(',')}}`;
  },
  'single line, 50 MB': () => {
    const unit = 'GET /api/orders/12345 200 18ms user=alice session=abcdef0123456789 ';
    return unit.repeat(Math.ceil((50 * MB) / unit.length)).slice(0, 50 * MB);
  },
  'ANSI storm, 10 MB': () => {
    const unit = '\x1b[2K\x1b[1G\x1b[36m⠋\x1b[39m Building \x1b[1m42%\x1b[22m\x1b[0m\x1b[?25l';
    return unit.repeat(Math.ceil((10 * MB) / unit.length));
  },
  // Not from the issue: a `find /`-sized glob result, the slowest linear case found while probing.
  'glob listing, 10 MB': () => {
    const paths: string[] = [];
    for (let i = 0, size = 0; size < 10 * MB; i++) {
      const path = `src/a${i % 97}/b${i % 13}/file${i}.ts`;
      paths.push(path);
      size += path.length + 1;
    }
    return paths.join('\n');
  },
  'CR-only line endings, 850 KB': () => {
    const lines: string[] = [];
    for (let i = 0, size = 0; size < 850 * 1024; i++) {
      const line = `2026-11-30T09:00:00Z ${i % 40 === 0 ? 'ERROR' : 'INFO'} worker ${i % 7} processed job ${i}`;
      lines.push(line);
      size += line.length + 1;
    }
    return lines.join('\r');
  },
};
