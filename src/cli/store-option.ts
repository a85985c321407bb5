// The --store option, shared by the commands that reach the store (its own
// module: compress.ts names it without loading the store).
export const STORE_OPTION = { store: { type: 'string' } } as const;
