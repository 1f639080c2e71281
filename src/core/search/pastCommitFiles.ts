// The files past commits like a text changed (history/similarCommits.ts), added to a file
// ranking as one more named signal: `similar-past-commit`, a share of the best keyword score.
import type { PastCommitEvidence } from '../history/similarCommits';
import type { FileHit, SearchHit } from './types';
import { byScore, unrankedFile } from './localize';
import { round } from './search';

/** What the strongest past-commit file adds, as a share of the best keyword score. */
export const PAST_COMMIT_WEIGHT = 0.5;

/**
 * `ranked` with each evidence's file raised by its share (a file only the history names enters
 * with its first chunk), best first.
 */
export function withPastCommits(ranked: readonly FileHit[], evidence: readonly PastCommitEvidence[], firstChunk: (path: string) => SearchHit | undefined): FileHit[] {
  if (evidence.length === 0) return [...ranked];
  const top = ranked[0]?.score ?? 0;
  const unit = (top > 0 ? top : 1) * PAST_COMMIT_WEIGHT;
  const out = new Map<string, FileHit>(ranked.map((f) => [f.path, f]));
  for (const e of evidence) {
    const value = round(unit * e.strength);
    if (value <= 0) continue;
    const first = out.has(e.path) ? undefined : firstChunk(e.path);
    const base = out.get(e.path) ?? (first && unrankedFile(first, [first]));
    if (!base) continue;
    out.set(e.path, { ...base, score: round(base.score + value), scoreBreakdown: [...base.scoreBreakdown, { kind: 'match', name: `similar-past-commit: ${e.what}`, value }] });
  }
  return [...out.values()].sort(byScore);
}
