// The module's exports: kernels only. The host owns linear memory: it lays out
// inputs, outputs and scratch from heap_base() upward and grows memory itself;
// kernels never allocate. Offsets into text are UTF-16 code units. See docs/ABI.md.

/** First byte the host may use (after the module's static data), 16-aligned. */
export function heap_base(): usize {
  return (__heap_base + 15) & ~15;
}

export { count_lines, lines, group_lines } from './lines';
export { template_hashes, volatile_fields } from './templates';
export { window_hashes, repeated_blocks, seen_blocks } from './repeats';
export { estimate_tokens, line_tokens } from './tokens';
export { classify_lines } from './classify';
export { plan_windows } from './windows';
export { text_features } from './features';
export { field_spans } from './fields';
export { id_masked_hashes } from './ids';
