// Seeded, stateless hashing: every "random" number in the sandbox is a pure function of its keys (no Math.random).

/** FNV-1a over a string, finished with an avalanche mix. */
export function hashString(text: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix(h);
}

/** murmur3's finaliser: spreads every input bit over the output. */
export function fmix(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Combines hashes/integers into one hash; order matters. */
export function mix(...keys: number[]): number {
  let h = 0x9e3779b9;
  for (const k of keys) h = fmix((h ^ (k >>> 0)) + Math.imul(h, 31) + (Math.floor(k / 4294967296) >>> 0));
  return h;
}

/** Two-key mix without the rest-parameter allocation (hot loops). */
export function mix2(a: number, b: number): number {
  const h = fmix((0x9e3779b9 ^ (a >>> 0)) + Math.imul(0x9e3779b9, 31));
  return fmix((h ^ (b >>> 0)) + Math.imul(h, 31));
}

/** A uniform number in [0, 1) derived from the keys. */
export function unit(...keys: number[]): number {
  return mix(...keys) / 4294967296;
}

/** Approximately normal (mean 0, sd 1) from the keys: sum of four uniforms, rescaled. */
export function gaussian(...keys: number[]): number {
  const h = mix(...keys);
  const a = fmix(h) / 4294967296;
  const b = fmix(h + 1) / 4294967296;
  const c = fmix(h + 2) / 4294967296;
  const d = fmix(h + 3) / 4294967296;
  return (a + b + c + d - 2) * Math.sqrt(3);
}
