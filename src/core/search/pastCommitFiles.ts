// The files the repository's history points at for a text (history/similarCommits.ts,
// history/messageWordFiles.ts), added to a file ranking as named signals, each a share of the
// best keyword score: `similar-past-commit: <subject>`, `past-commit-words: <words>`.
import type { PastCommitEvidence } from '../history/similarCommits';
import type { HistorySignal } from './evidenceParts';
import type { FileHit, SearchHit } from './types';
import { byScore, unrankedFile } from './localize';
import { round } from './search';

/** One history signal: its files, the share of the best keyword score its strongest file adds, its name. */
export interface PastSignal {
  signal: HistorySignal;
  weight: number;
  evidence: readonly PastCommitEvidence[];
}

/**
 * `ranked` with each evidence's file raised by its share (a file only the history names enters
 * with its first chunk), best first.
 */
export function withPastCommits(ranked: readonly FileHit[], signals: readonly PastSignal[], firstChunk: (path: string) => SearchHit | undefined): FileHit[] {
  if (signals.every((s) => s.evidence.length === 0 || s.weight <= 0)) return [...ranked];
  const top = ranked[0]?.score ?? 0;
  const out = new Map<string, FileHit>(ranked.map((f) => [f.path, f]));
  for (const { signal, weight, evidence } of signals) {
    const unit = (top > 0 ? top : 1) * weight;
    for (const e of evidence) {
      const value = round(unit * e.strength);
      if (value <= 0) continue;
      const first = out.has(e.path) ? undefined : firstChunk(e.path);
      const base = out.get(e.path) ?? (first && unrankedFile(first, [first]));
      if (!base) continue;
      out.set(e.path, { ...base, score: round(base.score + value), scoreBreakdown: [...base.scoreBreakdown, { kind: 'match', name: `${signal}: ${e.what}`, value }] });
    }
  }
  return [...out.values()].sort(byScore);
}
