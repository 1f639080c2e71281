// A pack's third step: the final score of each candidate (authority: vendored, test or prose
// spans weigh less unless the task is about them), then what is left out and why: the caller's
// negative examples, spans inside a better one, and weak matches.
import { isTestPath, isVendoredPath } from '../index/fields';
import { bucketOf } from '../languages';
import { round } from '../search/search';
import type { ScoreComponent } from '../search/types';
import { byScore, FILE_RANK_PART, total, type Candidate, type CandidatePool } from './candidates';
import type { RejectedFile } from './types';

/** A candidate whose own matches score less than this share of the best one's is a weak match. */
const WEAK_SHARE = 0.1;

export interface RankSettings {
  /** The caller's negative examples: paths (globs) and docids. */
  negative: (path: string, docid: string) => boolean;
  aboutTests: boolean;
  aboutDocs: boolean;
}

export interface Ranked {
  /** Best first. */
  kept: Candidate[];
  rejected: RejectedFile[];
}

export function rankCandidates(pool: CandidatePool, settings: RankSettings, sharedNameOnly: readonly RejectedFile[]): Ranked {
  const rejected: RejectedFile[] = [];
  const scored: Candidate[] = [];
  for (const c of pool.all()) {
    if (settings.negative(c.hit.path, c.hit.docid)) {
      rejected.push({ path: c.hit.path, docid: c.hit.docid, reason: 'marked irrelevant by the caller' });
      continue;
    }
    const base = total(c.parts);
    const exact = c.parts.some((p) => p.kind === 'match' && /exact/.test(p.name));
    if (!exact) {
      if (isVendoredPath(c.hit.path)) c.parts.push({ kind: 'boost', name: 'vendored or generated', factor: 0.4, value: round(base * -0.6) });
      else if (isTestPath(c.hit.path) && !settings.aboutTests) c.parts.push({ kind: 'boost', name: 'test code (task is not about tests)', factor: 0.6, value: round(base * -0.4) });
      else if (bucketOf(c.hit.language) === 'prose' && !settings.aboutDocs) c.parts.push({ kind: 'boost', name: 'documentation (task is about code)', factor: 0.8, value: round(base * -0.2) });
    }
    scored.push(c);
  }
  scored.sort(byScore);
  // "Weak" is judged against the best match on its merits: exact-name bonuses would make every expansion look weak.
  const isExactPart = (p: ScoreComponent) => p.kind === 'match' && /^exact /.test(p.name);
  // The file rank orders what is kept; the weak-match bar is set by the spans' own matches.
  const isFileRank = (p: ScoreComponent) => p.kind === 'match' && p.name === FILE_RANK_PART;
  const merit = (c: Candidate) => c.parts.filter((p) => !isExactPart(p) && !isFileRank(p)).reduce((s, p) => s + p.value, 0);
  const best = Math.max(0, ...scored.map(merit));

  // Drop spans covered by a better-ranked span of the same file, and weak matches.
  const kept: Candidate[] = [];
  for (const c of scored) {
    const cover = kept.find((k) => k.hit.path === c.hit.path && k.hit.startLine <= c.hit.startLine && k.hit.endLine >= c.hit.endLine);
    if (cover) {
      rejected.push({ path: c.hit.path, docid: c.hit.docid, reason: `inside ${cover.hit.docid}, already included`, score: round(total(c.parts)) });
      continue;
    }
    // A span of a file that file search ranks for the task is never a weak match.
    if (!c.parts.some(isExactPart) && !c.parts.some(isFileRank) && merit(c) < best * WEAK_SHARE) {
      rejected.push({ path: c.hit.path, docid: c.hit.docid, reason: `weak match (score ${round(total(c.parts))} vs ${round(best)} for the best match)`, score: round(total(c.parts)) });
      continue;
    }
    kept.push(c);
  }

  for (const r of sharedNameOnly) if (!pool.has(r.docid as string)) rejected.push(r);
  return { kept, rejected };
}
