// "Which files did past commits like this one change?" A text is compared with each past
// commit's message by the cosine of their TF-IDF word vectors; when the best match is close (a
// recurring kind of change: "update dev dependencies", "bump the minimum Python"), the files the
// closest few commits changed are evidence for the text. A long issue text is rarely that close
// to a short message, so the signal stays out of the way of a task's own structure.
import type { CommitLog } from './commitLog';
import { messageIdf, messageWords } from './messageWords';

/** Below this cosine the best past message is not like the text: no evidence. */
export const MIN_SIMILARITY = 0.3;
/** Past commits whose files count: the closest few. */
export const SIMILAR_COMMITS = 3;
/**
 * Words a past message must share with the text: one shared word makes a one-word query as
 * "like" a message as a whole sentence (`error` and "bump error_prone_core").
 */
export const MIN_SHARED_WORDS = 2;

export interface PastCommitEvidence {
  path: string;
  /** 0..1: the best file 1; a file changed by closer commits, and by commits touching fewer files, more. */
  strength: number;
  /** The closest past commit that changed it: its subject. */
  what: string;
}

/** Evidence strongest first; ties by path, so one text always gives one order. */
export const byStrength = (a: PastCommitEvidence, b: PastCommitEvidence): number => b.strength - a.strength || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

interface Vector {
  weights: Map<string, number>;
  norm: number;
}

/** Per log, its words' document frequencies and each commit's vector (built once per HEAD, see prepared.ts). */
const vectorsByLog = new WeakMap<CommitLog, { idf: (w: string) => number; vectors: Vector[] }>();

export function vectorsOf(log: CommitLog): { idf: (w: string) => number; vectors: Vector[] } {
  let v = vectorsByLog.get(log);
  if (v) return v;
  const df = new Map<string, number>();
  for (const c of log.commits) for (const w of new Set(c.words)) df.set(w, (df.get(w) ?? 0) + 1);
  const n = log.commits.length;
  const idf = (w: string) => messageIdf(n, df.get(w) ?? 0);
  v = { idf, vectors: log.commits.map((c) => vector(c.words, idf)) };
  vectorsByLog.set(log, v);
  return v;
}

function vector(words: readonly string[], idf: (w: string) => number): Vector {
  const tf = new Map<string, number>();
  for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
  let sum = 0;
  const weights = new Map<string, number>();
  for (const [w, f] of tf) {
    const x = (1 + Math.log(f)) * idf(w);
    if (x <= 0) continue;
    weights.set(w, x);
    sum += x * x;
  }
  return { weights, norm: Math.sqrt(sum) };
}

/** Whether `text` has words enough to be like a past message at all (before the log is read). */
export function hasMessageWords(text: string): boolean {
  return enoughWords(messageWords(text));
}

/** Distinct words enough to share MIN_SHARED_WORDS with a message. */
function enoughWords(words: readonly string[]): boolean {
  return new Set(words).size >= MIN_SHARED_WORDS;
}

/** The past commits most like `text` (cosine, best first), at most `limit`, none below `min`. */
export function similarCommits(log: CommitLog, text: string, limit = SIMILAR_COMMITS, min = MIN_SIMILARITY): Array<{ index: number; similarity: number }> {
  const words = messageWords(text);
  if (!enoughWords(words)) return [];
  const { idf, vectors } = vectorsOf(log);
  const q = vector(words, idf);
  if (q.norm === 0) return [];
  const scored: Array<{ index: number; similarity: number }> = [];
  vectors.forEach((d, index) => {
    if (d.norm === 0) return;
    let dot = 0;
    let shared = 0;
    const [small, large] = q.weights.size <= d.weights.size ? [q.weights, d.weights] : [d.weights, q.weights];
    for (const [w, x] of small) {
      const y = large.get(w);
      if (y === undefined) continue;
      dot += x * y;
      shared++;
    }
    if (shared >= MIN_SHARED_WORDS) scored.push({ index, similarity: dot / q.norm / d.norm });
  });
  scored.sort((a, b) => b.similarity - a.similarity || a.index - b.index);
  if ((scored[0]?.similarity ?? 0) < min) return [];
  return scored.slice(0, limit);
}

/**
 * The files the past commits most like `text` changed, strongest first, among those `counts`
 * accepts (indexed, not tests, not prose: a changelog or a test changes with everything).
 */
export function pastCommitEvidence(log: CommitLog, text: string, counts: (path: string) => boolean): PastCommitEvidence[] {
  const similar = similarCommits(log, text);
  const best = similar[0]?.similarity ?? 0;
  const byPath = new Map<string, PastCommitEvidence>();
  for (const { index, similarity } of similar) {
    const commit = log.commits[index];
    if (!commit) continue;
    const share = similarity / best / Math.sqrt(commit.files.length);
    for (const path of commit.files) {
      if (!counts(path)) continue;
      const had = byPath.get(path);
      byPath.set(path, { path, strength: (had?.strength ?? 0) + share, what: had?.what ?? commit.subject });
    }
  }
  const out = [...byPath.values()];
  const top = Math.max(0, ...out.map((e) => e.strength));
  return out
    .map((e) => ({ ...e, strength: top > 0 ? e.strength / top : 0 }))
    .sort(byStrength);
}
