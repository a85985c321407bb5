// The 23 scenarios of `squeez benchmark` (squeez v1.11.2, github
// claudioemmanuel/squeez), as data: how squeez runs each and what its quality
// rule demands. The inputs are squeez's, never copied here: the fixture files
// sit in the user's squeez checkout (bench/fixtures), and the scenarios squeez
// generates in its own process are read from a folder of dumps when given.

/** How squeez's benchmark compresses a scenario's input. */
export type PeerRun =
  /** `squeez filter <hint>`: its filter pipeline, picked by the command hint. */
  | { readonly via: 'filter'; readonly hint: string }
  /** `squeez compress-md --ultra`: its Markdown prose rewriter. */
  | { readonly via: 'markdown' }
  /** `squeez wrap "cat FILE"`, `calls` times in one state folder: its cross-call memory. */
  | { readonly via: 'wrap'; readonly calls: number };

export interface Scenario {
  readonly name: string;
  readonly run: PeerRun;
  /** squeez's fixture file, or null when squeez generates the input in its own process. */
  readonly fixture: string | null;
  /** The command line squeeze is told (`--command`); null for a file read (`--tool read`). */
  readonly command: string | null;
  /**
   * Strings squeez's quality rule requires in the output. Its own marker strings
   * (`squeez:summary`, `squeez: identical to`) are left out: judged tool-neutrally.
   */
  readonly required: readonly string[];
  /** 'signal': required strings and half the diagnostic terms; 'keywords': required strings only. */
  readonly quality: 'signal' | 'keywords';
}

const filter = (name: string, fixture: string | null, hint: string, required: string[] = []): Scenario => ({
  name,
  run: { via: 'filter', hint },
  fixture,
  command: hint,
  required,
  quality: 'signal',
});

export const SCENARIOS: readonly Scenario[] = [
  { ...filter('git_log_200', 'git_log_200.txt', 'git log'), quality: 'keywords' },
  filter('git_diff', 'git_diff.txt', 'git diff', ['---', '+++']),
  filter('git_status', 'git_status.txt', 'git status'),
  filter('docker_logs', 'docker_logs.txt', 'docker'),
  filter('npm_install', 'npm_install.txt', 'npm', ['added']),
  filter('ps_aux', 'ps_aux.txt', 'ps'),
  filter('find_deep', 'find_deep.txt', 'find'),
  filter('ls_la', 'ls_la.txt', 'ls', ['total']),
  filter('env_dump', 'env_dump.txt', 'env', ['PATH']),
  filter('git_copilot', 'git_copilot_session.txt', 'git'),
  filter('cargo_build_noisy', null, 'cargo build', ['error']),
  filter('tsc_errors', null, 'tsc', ['error TS', 'Found']),
  filter('verbose_app_log', null, 'docker logs', ['ERROR']),
  filter('repetitive_output', null, 'generic', ['unique']),
  filter('kubectl_pods', null, 'kubectl get pods', ['Running', 'NAME']),
  {
    name: 'md_claude_md',
    run: { via: 'markdown' },
    fixture: 'mdcompress_claude_md.txt',
    command: null,
    required: [],
    quality: 'signal',
  },
  {
    name: 'md_prose',
    run: { via: 'markdown' },
    fixture: 'mdcompress_prose.txt',
    command: null,
    required: [],
    quality: 'signal',
  },
  { ...filter('agent_heavy', null, 'bash'), quality: 'keywords' },
  { ...filter('high_context_adaptive', 'intensity_budget80.txt', 'bash'), quality: 'keywords' },
  { ...filter('state_first_simulation', null, 'cat'), quality: 'keywords' },
  { ...filter('claude_md_overhead', null, 'cat'), quality: 'keywords' },
  {
    name: 'summarize_huge',
    run: { via: 'wrap', calls: 1 },
    fixture: 'summarize_huge.txt',
    command: 'cat summarize_huge.txt',
    required: [],
    quality: 'keywords',
  },
  {
    name: 'crosscall_redundancy_3x',
    run: { via: 'wrap', calls: 3 },
    fixture: 'context_crosscall_1.txt',
    command: 'cat context_crosscall_1.txt',
    required: [],
    quality: 'keywords',
  },
];
