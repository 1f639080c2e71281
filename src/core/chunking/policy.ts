import { languageInfo, suffixOf, type Bucket } from '../languages';

/**
 * How big chunks are. Line chunks pack whole lines up to a target size chosen per suffix;
 * AST chunks are split at their children's boundaries when larger than `astMaxChars`.
 * Sizes are in characters (UTF-16 code units), the unit the reference design used.
 */
export interface ChunkingPolicy {
  /** Target characters per line chunk, by bucket. */
  lineChunkChars: Record<Bucket, number>;
  /** Per-suffix overrides of the bucket target, keyed by lower-case suffix with the dot (`.md`). */
  suffixChunkChars: Record<string, number>;
  /** Largest AST chunk before it is split at its children's boundaries. */
  astMaxChars: number;
}

/** The reference behaviour: every file cut into flat 400-character line chunks. */
export const REFERENCE_POLICY: ChunkingPolicy = {
  lineChunkChars: { code: 400, prose: 400, config: 400 },
  suffixChunkChars: {},
  astMaxChars: 400,
};

/**
 * Cairn's defaults. Code and prose are cut larger than the reference (a function or a section
 * reads as a unit, and BM25 over 400-character slivers rewards lucky keyword collisions);
 * config is cut smaller (a key and its value are what a query is after).
 * The figures come from `cairn eval` runs recorded in docs/retrieval-quality.md.
 */
export const DEFAULT_POLICY: ChunkingPolicy = {
  lineChunkChars: { code: 1200, prose: 1200, config: 800 },
  suffixChunkChars: {},
  astMaxChars: 2400,
};

/** Merges a partial policy (settings, CLI flags) over the defaults. */
export function resolvePolicy(partial?: Partial<ChunkingPolicy>): ChunkingPolicy {
  return {
    lineChunkChars: { ...DEFAULT_POLICY.lineChunkChars, ...partial?.lineChunkChars },
    suffixChunkChars: { ...DEFAULT_POLICY.suffixChunkChars, ...partial?.suffixChunkChars },
    astMaxChars: partial?.astMaxChars ?? DEFAULT_POLICY.astMaxChars,
  };
}

/** The line-chunk target for a path under a policy. */
export function lineTargetFor(path: string, policy: ChunkingPolicy): number {
  return policy.suffixChunkChars[suffixOf(path)] ?? policy.lineChunkChars[languageInfo(path).bucket];
}
