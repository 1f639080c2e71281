// Diversification: a file's chunks past the first few make room for other files' chunks.

/**
 * For a ranked list, 0 for the first `maxPerFile` items of each file and 1 for the rest: a
 * stable sort by tier keeps every file's best chunks in score order and pushes a file's
 * extra chunks below the other files' chunks. A list from one file is left as it is.
 */
export function diversityTiers<T>(ranked: readonly T[], fileOf: (item: T) => string, maxPerFile: number): number[] {
  const seen = new Map<string, number>();
  return ranked.map((item) => {
    const f = fileOf(item);
    const n = (seen.get(f) ?? 0) + 1;
    seen.set(f, n);
    return n > maxPerFile ? 1 : 0;
  });
}
