// "Which files do past commits whose messages use these words change?" A bridge learned from
// the repository's own history between the words people write in messages and the files those
// commits touched: `dependencies` → the manifests and pinned workflows, `lint` → the linter's
// configuration, `router` → the router. Unlike similarCommits.ts it needs no whole message like
// the text, only words that, in this repository, reliably go with a file.
import type { CommitLog } from './commitLog';
import { byStrength, type PastCommitEvidence } from './similarCommits';
import { messageIdf, messageWords } from './messageWords';

/** A word's association is learned only from this many past commits using it at least. */
export const MIN_WORD_COMMITS = 3;
/** …of which at least this share changed the file (the word goes with the file, not by chance). */
export const MIN_CONFIDENCE = 0.5;
/** …and this many times the share of all commits that changed it (not a file everything changes). */
export const MIN_LIFT = 2;
/** Words of a text's subject read: a title or a message's first line says what a change is about. */
const SUBJECT_WORDS = 24;
const MIN_SUBJECT_WORDS = 2;

interface WordFiles {
  /** Per word, the commits (indices into the log) whose message uses it. */
  commits: Map<string, number[]>;
  /** Commits changing each file. */
  changed: Map<string, number>;
  /** Per word asked for, the files its commits changed and how many of them did (a bounded memo). */
  filesByWord: Map<string, Map<string, number>>;
}

/** Words whose file counts are kept; past this the memo starts over. */
const MEMO_WORDS = 4096;

const byLog = new WeakMap<CommitLog, WordFiles>();

/** Built once per log; a word's files are counted when a text asks for it. */
export function wordFilesOf(log: CommitLog): WordFiles {
  const kept = byLog.get(log);
  if (kept) return kept;
  const wf: WordFiles = { commits: new Map(), changed: new Map(), filesByWord: new Map() };
  log.commits.forEach((c, i) => {
    for (const f of c.files) wf.changed.set(f, (wf.changed.get(f) ?? 0) + 1);
    for (const w of new Set(c.words)) {
      const list = wf.commits.get(w);
      if (list) list.push(i);
      else wf.commits.set(w, [i]);
    }
  });
  byLog.set(log, wf);
  return wf;
}

/** The files the commits using `word` changed, with how many of them did (memoised: a server asks again). */
function filesOf(wf: WordFiles, log: CommitLog, word: string, using: readonly number[]): Map<string, number> {
  let files = wf.filesByWord.get(word);
  if (files) return files;
  files = new Map();
  for (const i of using) for (const f of log.commits[i]?.files ?? []) files.set(f, (files.get(f) ?? 0) + 1);
  if (wf.filesByWord.size >= MEMO_WORDS) wf.filesByWord.clear();
  wf.filesByWord.set(word, files);
  return files;
}

/**
 * Whether `text`'s subject has words enough to be read against the history (before the log is
 * read): a one-word query is a name, which the keyword ranking and the symbol table answer.
 */
export function hasSubjectWords(text: string): boolean {
  return subjectWords(text).length >= MIN_SUBJECT_WORDS;
}

/** The words of a text's subject: its first non-empty line, at most SUBJECT_WORDS of them. */
export function subjectWords(text: string): string[] {
  const first = text.split(/\r?\n/).find((line) => line.trim() !== '') ?? '';
  return [...new Set(messageWords(first))].slice(0, SUBJECT_WORDS);
}

/**
 * The files the words of `text`'s subject go with in past commits, among those `counts` accepts,
 * strongest first. Each telling word adds its rarity among messages (idf) times how much more
 * often than commits at large the commits using it changed the file; a file's strength (0..1)
 * is that sum against the rarest word of the subject the history knows, so a subject's one rare
 * word that goes with a file counts in full, and a common word less.
 */
export function pastWordEvidence(log: CommitLog, text: string, counts: (path: string) => boolean): PastCommitEvidence[] {
  const words = subjectWords(text);
  if (words.length < MIN_SUBJECT_WORDS || log.commits.length === 0) return [];
  const wf = wordFilesOf(log);
  const total = log.commits.length;
  let rarest = 0;
  const byPath = new Map<string, { score: number; words: string[] }>();
  for (const w of words) {
    const using = wf.commits.get(w) ?? [];
    const n = using.length;
    if (n === 0) continue;
    const weight = messageIdf(total, n);
    rarest = Math.max(rarest, weight);
    if (n < MIN_WORD_COMMITS) continue;
    for (const [path, c] of filesOf(wf, log, w, using)) {
      const confidence = c / n;
      const base = (wf.changed.get(path) ?? 0) / total;
      if (confidence < MIN_CONFIDENCE || confidence < MIN_LIFT * base || !counts(path)) continue;
      const had = byPath.get(path) ?? { score: 0, words: [] };
      // How much more often than commits at large: 0 at the file's base rate, 1 when every commit using the word changed it.
      const excess = (confidence - base) / (1 - base);
      byPath.set(path, { score: had.score + weight * excess, words: [...had.words, w] });
    }
  }
  if (rarest === 0) return [];
  return [...byPath]
    .map(([path, e]) => ({ path, strength: Math.min(1, e.score / rarest), what: e.words.join(', ') }))
    .sort(byStrength);
}
