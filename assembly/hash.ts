// The line fingerprint shared by every kernel that hashes text: two 32-bit
// lanes (murmur3-style and FNV-1a-style) over 32-bit words made of pairs of
// UTF-16 code units, first unit in the low half. 32-bit lanes keep the
// TypeScript twin on Math.imul, so both backends agree bit for bit.

// @ts-ignore: decorator
@inline export const SEED_A: u32 = 0x9747b28c;
// @ts-ignore: decorator
@inline export const SEED_B: u32 = 0x811c9dc5;

// @ts-ignore: decorator
@inline export function mixA(h: u32, w: u32): u32 {
  let k = w * 0xcc9e2d51;
  k = rotl<u32>(k, 15) * 0x1b873593;
  h ^= k;
  return rotl<u32>(h, 13) * 5 + 0xe6546b64;
}

// @ts-ignore: decorator
@inline export function mixB(h: u32, w: u32): u32 {
  return (h ^ w) * 0x01000193;
}

// @ts-ignore: decorator
@inline export function fmix(h: u32): u32 {
  h ^= h >>> 16;
  h *= 0x85ebca6b;
  h ^= h >>> 13;
  h *= 0xc2b2ae35;
  return h ^ (h >>> 16);
}

/** Fingerprint of `len` code units at `ptr`; writes lane B to `outB`, returns lane A. */
// @ts-ignore: decorator
@inline export function hashUnits(ptr: usize, len: i32, outB: usize): u32 {
  let a = SEED_A ^ <u32>len;
  let b = SEED_B ^ <u32>len;
  const pairs = len >>> 1;
  for (let i = 0; i < pairs; i++) {
    const w = load<u32>(ptr + (<usize>i << 2));
    a = mixA(a, w);
    b = mixB(b, w);
  }
  if (len & 1) {
    const w = <u32>load<u16>(ptr + (<usize>(len - 1) << 1));
    a = mixA(a, w);
    b = mixB(b, w);
  }
  store<u32>(outB, fmix(b));
  return fmix(a);
}
