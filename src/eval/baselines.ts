// The two baselines Cairn is measured against, computed on the same trees in the same run:
//
//   bm25       whole-file BM25 (k1 = 1.2, b = 0.75), one document per file, with the same
//              code-aware tokenizer the index uses (identifiers whole and split into parts)
//   rg-words   what a person does with grep: run ripgrep once per query word and rank files by
//              how many distinct query words they contain (then by total matches, then path)
//
// Both answer with whole files, never spans.
import { spawn } from 'node:child_process';
import { proseForm, tokenize } from '../core/index/tokenizer';

export interface RankedFile {
  path: string;
  score: number;
}

export interface Bm25Params {
  k1: number;
  b: number;
}

export const BM25_DEFAULTS: Bm25Params = { k1: 1.2, b: 0.75 };

const byScoreThenPath = (a: RankedFile, b: RankedFile): number => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** An in-memory BM25 index of whole files that can be updated file by file. */
export class WholeFileBm25 {
  private readonly postings = new Map<string, Map<string, number>>();
  private readonly lengths = new Map<string, number>();
  private readonly termsOf = new Map<string, string[]>();
  private totalLength = 0;

  constructor(private readonly params: Bm25Params = BM25_DEFAULTS) {}

  get documentCount(): number {
    return this.lengths.size;
  }

  has(path: string): boolean {
    return this.lengths.has(path);
  }

  /** Adds or replaces a file. */
  set(path: string, text: string): void {
    this.delete(path);
    const counts = new Map<string, number>();
    const tokens = tokenize(text);
    for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
    for (const [term, tf] of counts) {
      let list = this.postings.get(term);
      if (!list) this.postings.set(term, (list = new Map()));
      list.set(path, tf);
    }
    this.lengths.set(path, tokens.length);
    this.termsOf.set(path, [...counts.keys()]);
    this.totalLength += tokens.length;
  }

  delete(path: string): void {
    const terms = this.termsOf.get(path);
    if (!terms) return;
    for (const term of terms) {
      const list = this.postings.get(term);
      list?.delete(path);
      if (list?.size === 0) this.postings.delete(term);
    }
    this.totalLength -= this.lengths.get(path) ?? 0;
    this.lengths.delete(path);
    this.termsOf.delete(path);
  }

  /** Inverse document frequency (Lucene's non-negative form). */
  idf(term: string): number {
    const n = this.lengths.size;
    const df = this.postings.get(term)?.size ?? 0;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** Files ranked by BM25 over the distinct tokens of the query. */
  search(query: string, limit = 100): RankedFile[] {
    const n = this.lengths.size;
    if (n === 0) return [];
    const { k1, b } = this.params;
    const avgLength = this.totalLength / n || 1;
    const scores = new Map<string, number>();
    for (const term of new Set(tokenize(query))) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = this.idf(term);
      for (const [path, tf] of list) {
        const norm = k1 * (1 - b + (b * (this.lengths.get(path) ?? 0)) / avgLength);
        scores.set(path, (scores.get(path) ?? 0) + (idf * tf * (k1 + 1)) / (tf + norm));
      }
    }
    return [...scores].map(([path, score]) => ({ path, score })).sort(byScoreThenPath).slice(0, limit);
  }
}

/** At most this many words of a query are grepped for (each is one rg run). */
export const MAX_GREP_WORDS = 24;

/** The words a person would grep for: distinct, lower-cased, 3+ characters, not English stop words. */
export function grepWords(query: string): string[] {
  const words = (query.match(/[\p{L}\p{N}_$]+/gu) ?? []).map((w) => w.toLowerCase());
  const out: string[] = [];
  for (const w of words) {
    if (w.length < 3 || out.includes(w) || proseForm(w) === '') continue;
    out.push(w);
    if (out.length >= MAX_GREP_WORDS) break;
  }
  return out;
}

/** Per-file match counts of one literal, case-insensitive word (`rg --count-matches`). */
export function countMatches(rgPath: string, root: string, word: string, signal?: AbortSignal): Promise<Map<string, number>> {
  const args = ['--count-matches', '--ignore-case', '--fixed-strings', '--hidden', '--no-messages', '--null', '--max-filesize', '1M', '--glob', '!.git', '--', word, '.'];
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'], signal, windowsHide: true });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0 && code !== 1) return reject(new Error(`rg exited with ${code} for ${JSON.stringify(word)}`));
      const counts = new Map<string, number>();
      // `--null`: each line is `path\0count`.
      for (const line of Buffer.concat(chunks).toString('utf8').split('\n')) {
        const nul = line.indexOf('\0');
        if (nul < 0) continue;
        counts.set(line.slice(0, nul).replace(/^\.\//, '').replace(/\\/g, '/'), Number(line.slice(nul + 1)));
      }
      resolve(counts);
    });
  });
}

/**
 * Files ranked by how many distinct query words they contain, then by total matches, then
 * path. Only files in `searchable` count, so every system ranks the same set of files.
 */
export async function rankByQueryWords(rgPath: string, root: string, query: string, searchable: ReadonlySet<string>, limit = 100, signal?: AbortSignal): Promise<RankedFile[]> {
  const wordsFound = new Map<string, number>();
  const matches = new Map<string, number>();
  for (const word of grepWords(query)) {
    for (const [path, count] of await countMatches(rgPath, root, word, signal)) {
      if (!searchable.has(path) || count === 0) continue;
      wordsFound.set(path, (wordsFound.get(path) ?? 0) + 1);
      matches.set(path, (matches.get(path) ?? 0) + count);
    }
  }
  return [...wordsFound]
    .map(([path, words]) => ({ path, words, total: matches.get(path) ?? 0 }))
    .sort((a, b) => b.words - a.words || b.total - a.total || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .slice(0, limit)
    .map(({ path, words }) => ({ path, score: words }));
}
