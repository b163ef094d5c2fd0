/**
 * A small deterministic random source (a linear congruential generator): a scene drawn from one
 * seed is the same on both databases and on every run.
 */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}
