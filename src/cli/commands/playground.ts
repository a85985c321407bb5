// `squeeze playground`: serves the built playground page (dist/playground/index.html,
// one self-contained file) on the loopback interface until Ctrl-C. The page
// compresses in the browser; the server only hands it out.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { positionals } from '../args.js';
import type { Command } from '../command.js';
import { CliError, ExitCode } from '../errors.js';
import { packageRoot } from '../version.js';

const PAGE = join('dist', 'playground', 'index.html');

function page(): Buffer {
  const path = join(packageRoot(), PAGE);
  try {
    return readFileSync(path);
  } catch (error) {
    throw new CliError(ExitCode.io, `cannot read ${path}: build the page first (npm run build)`, { cause: error });
  }
}

export const playgroundCommand: Command = {
  name: 'playground',
  help: `Usage: squeeze playground

Serves the playground page on 127.0.0.1 at a free port and prints its URL.
Paste or drop a tool output, or pick a sample, and see beside the original
(omitted lines shaded, labelled with their line range) what the model gets,
with the token counts and the verdict line. Everything runs in the browser:
nothing is uploaded. Ctrl-C stops the server.

The page is one file, ${PAGE} in the package, and also works opened
directly (file://).
`,
  options: {},
  async run(parsed, io) {
    positionals(parsed, 0, 'playground takes no arguments');
    const html = page();
    const server = createServer((req, res) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { allow: 'GET, HEAD' }).end();
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      if (path !== '/' && path !== '/index.html') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : html);
    });
    await new Promise<void>((listening, failed) => {
      server.once('error', failed);
      server.listen(0, '127.0.0.1', listening);
    });
    const { port } = server.address() as AddressInfo;
    io.stdout(`http://127.0.0.1:${port}/\n`);
    io.stderr('squeeze playground: serving the page; Ctrl-C stops\n');
    await new Promise<void>((stopped) => {
      const stop = () => {
        process.off('SIGINT', stop).off('SIGTERM', stop);
        server.closeAllConnections();
        server.close(() => stopped());
      };
      process.once('SIGINT', stop).once('SIGTERM', stop);
    });
    return ExitCode.ok;
  },
};
