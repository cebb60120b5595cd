// A small seeded pseudo-random source for the benchmark corpora: the same
// seed gives the same bytes on every machine and Node version, so two runs
// of `pnpm bench` measure the same input. Not for anything security-related.

/** mulberry32: 32-bit state, good enough spread for synthetic text. */
export function seeded(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min, max) => min + Math.floor(next() * (max - min + 1));
  const pick = (items) => items[Math.floor(next() * items.length)];
  const chance = (p) => next() < p;
  const hex = (length) => {
    let out = "";
    for (let i = 0; i < length; i++) out += "0123456789abcdef"[Math.floor(next() * 16)];
    return out;
  };
  const base62 = (length) => {
    const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let out = "";
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(next() * 62)];
    return out;
  };
  /** A lowercase UUID of version 7's shape (Amp's thread ids look like this). */
  const uuid = () =>
    `${hex(8)}-${hex(4)}-7${hex(3)}-${pick(["8", "9", "a", "b"])}${hex(3)}-${hex(12)}`;
  return { next, int, pick, chance, hex, base62, uuid };
}
