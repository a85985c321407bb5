// `squeeze demo` (and `npm start`): the main job on the project's own sample.
import type { Command } from '../command.js';
import { runDemo } from '../../demo/index.js';
import { ExitCode } from '../errors.js';
import { positionals } from '../args.js';

export const demoCommand: Command = {
  name: 'demo',
  help: `Usage: squeeze demo

Compresses a sample CI run that ships with squeeze (install, audit, build,
600 tests with two failures, a service log) at the default settings, and
shows the token counts before and after, which evidence was kept, what was
omitted, and the exact text the model would see.
`,
  options: {},
  async run(parsed, io) {
    positionals(parsed, 0, 'demo takes no arguments');
    io.stdout(`${runDemo()}\n`);
    return ExitCode.ok;
  },
};
