// A deterministic source of numbers in [0, 1) (xorshift32): the same seed gives the same sequence, so an estimate is
// reproducible and a failing comparison in a test or a benchmark can be replayed.
export function seededRandom(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
}
