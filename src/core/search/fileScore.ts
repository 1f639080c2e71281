// A file's score from its chunks' scores: what `--group file` ranks files by, whichever
// provider found the chunks.
import type { RankingParams, ScoreComponent } from './types';

/**
 * A file's score from its ranked chunks (best first): the best chunk, a damped sum of the
 * others (`fileOtherChunks`, then × `fileChunkDecay` per further chunk), and the file-name
 * boost. The breakdown's values add up to the score.
 */
export function fileScore(
  path: string,
  chunks: ReadonlyArray<{ score: number }>,
  nameWords: ReadonlySet<string>,
  ranking: RankingParams,
  /** Query words only the file's other chunks match, and their summed weight × idf. */
  coverage: { words: number; weight: number } = { words: 0, weight: 0 },
): { score: number; breakdown: ScoreComponent[] } {
  const breakdown: ScoreComponent[] = [];
  const best = round((chunks[0] as { score: number }).score);
  breakdown.push({ kind: 'match', name: 'best chunk', value: best });
  let others = 0;
  let w = ranking.fileOtherChunks;
  for (let i = 1; i < chunks.length && w > 1e-6; i++, w *= ranking.fileChunkDecay) others += w * (chunks[i] as { score: number }).score;
  if (chunks.length > 1 && others > 0) breakdown.push({ kind: 'match', name: `${chunks.length - 1} other matching chunk${chunks.length === 2 ? '' : 's'} (damped)`, value: round(others) });
  if (coverage.words > 0 && ranking.fileCoverage > 0) {
    breakdown.push({ kind: 'match', name: `${coverage.words} more query word${coverage.words === 1 ? '' : 's'} in other chunks`, value: round(coverage.weight * ranking.fileCoverage) });
  }
  let running = breakdown.reduce((t, p) => t + p.value, 0);
  if (ranking.fileName !== 1 && nameWords.size > 0 && nameWords.has(fileNameOf(path))) {
    const value = round(running * (ranking.fileName - 1));
    breakdown.push({ kind: 'boost', name: 'file-name', factor: ranking.fileName, value });
    running += value;
  }
  return { score: round(breakdown.reduce((t, p) => t + p.value, 0)), breakdown };
}

/** Names a file goes by: its base name without extensions, or its folder's for `index.js`, `mod.rs`, `__init__.py`. */
export function fileNameOf(path: string): string {
  const parts = path.split('/');
  let name = (parts[parts.length - 1] as string).toLowerCase().replace(/\..*$/, '');
  if (GENERIC_FILE_NAMES.has(name) && parts.length > 1) name = (parts[parts.length - 2] as string).toLowerCase();
  return name.replace(/^[_$.]+|[_$]+$/g, '');
}

const GENERIC_FILE_NAMES = new Set(['index', 'mod', '__init__', 'main', 'lib']);

/** A score or a part of one, to six decimals. */
export function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
