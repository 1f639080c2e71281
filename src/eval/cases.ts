// Mining evaluation cases from a repository's own history: commits whose message describes a
// change in words, with the source lines they changed (located in their parent) as the answer.
import { isEligiblePath, resolveDiscoveryOptions, type DiscoveryOptions } from '../core/discovery';
import { isTestPath, isVendoredPath } from '../core/index/fields';
import { languageForPath } from '../core/languages';
import { oldRangesOfDiff } from './diffRanges';
import { git, isMissingObjectError, splitNul } from './git';
import { cleanCommitMessage, messageSkipReason, subjectOf } from './messages';
import type { CaseSkipReason, EvalCase, MiningResult, TruthFile } from './types';

export interface MiningOptions {
  /** Stop once this many cases are accepted (the newest ones). */
  maxCases: number;
  /** Commits changing more source files than this are skipped (default 5). */
  maxFiles?: number;
  /** Only commits after this date (anything `git log --since` accepts). */
  since?: string;
  /** Look at no more than this many commits (default max(500, 30 × maxCases)). */
  maxScan?: number;
  /** Which files count as searchable (same options the index uses). */
  discovery?: Partial<DiscoveryOptions>;
  /** The commit to mine back from (default HEAD). */
  head?: string;
  signal?: AbortSignal;
  /** Called after each commit is judged. */
  onCommit?: (scanned: number, accepted: number) => void;
}

export const DEFAULT_MAX_FILES = 5;

/** What a changed path is, for deciding whether a commit is a source change. */
export type PathClass = 'source' | 'test' | 'docs' | 'other';

export function classifyPath(path: string, discovery: DiscoveryOptions): PathClass {
  const language = languageForPath(path);
  if (!language) return 'other';
  if (isTestPath(path)) return 'test';
  if (language.bucket === 'prose') return 'docs';
  if (isVendoredPath(path) || !isEligiblePath(path, discovery).eligible) return 'other';
  return 'source';
}

/** One line of `git diff --name-status -z -M`. */
export interface PathChange {
  /** A, M, D, T, R, C (similarity scores dropped). */
  status: string;
  /** The path in the parent (absent for additions). */
  oldPath?: string;
  /** The path in the commit (absent for deletions). */
  newPath?: string;
}

export function parseNameStatus(output: string): PathChange[] {
  const fields = splitNul(output);
  const changes: PathChange[] = [];
  for (let i = 0; i < fields.length; ) {
    const status = (fields[i++] ?? '').charAt(0);
    if (status === 'R' || status === 'C') {
      changes.push({ status, oldPath: fields[i++], newPath: fields[i++] });
    } else {
      const p = fields[i++];
      if (status === 'A') changes.push({ status, newPath: p });
      else if (status === 'D') changes.push({ status, oldPath: p });
      else changes.push({ status, oldPath: p, newPath: p });
    }
  }
  return changes;
}

interface LoggedCommit {
  commit: string;
  parents: string[];
  timestamp: number;
  message: string;
}

const FIELD = '\x1f';
const RECORD = '\x1e';

async function logCommits(repoDir: string, options: MiningOptions, maxScan: number): Promise<LoggedCommit[]> {
  const args = ['log', `--format=%H${FIELD}%P${FIELD}%ct${FIELD}%B${RECORD}`, '--date-order', `--max-count=${maxScan}`];
  if (options.since) args.push(`--since=${options.since}`);
  args.push(options.head ?? 'HEAD', '--');
  const out = await git(repoDir, args, { signal: options.signal });
  const commits: LoggedCommit[] = [];
  for (const record of out.split(RECORD)) {
    const [commit, parents, timestamp, message] = record.replace(/^\n/, '').split(FIELD);
    if (!commit || timestamp === undefined || message === undefined) continue;
    commits.push({ commit, parents: parents ? parents.split(' ').filter(Boolean) : [], timestamp: Number(timestamp), message: message.trim() });
  }
  return commits;
}

const DIFF_FLAGS = ['--no-ext-diff', '--no-textconv', '--no-color', '-M'];

/** Why a single-parent commit is not a case, or its ground truth. */
async function judgeCommit(repoDir: string, c: LoggedCommit, discovery: DiscoveryOptions, maxFiles: number, signal?: AbortSignal): Promise<{ reason: CaseSkipReason } | { truth: TruthFile[] }> {
  const parent = c.parents[0] as string;
  const messageReason = messageSkipReason(c.message);
  if (messageReason) return { reason: messageReason };
  const changes = parseNameStatus(await git(repoDir, ['diff', '--name-status', '-z', ...DIFF_FLAGS, parent, c.commit], { signal }));
  const classOf = (ch: PathChange): PathClass => {
    const classes = [ch.newPath, ch.oldPath].filter((p): p is string => p !== undefined).map((p) => classifyPath(p, discovery));
    return classes.includes('source') ? 'source' : (classes[0] ?? 'other');
  };
  const source = changes.filter((ch) => classOf(ch) === 'source');
  if (source.length === 0) {
    return { reason: changes.length > 0 && changes.every((ch) => ['test', 'docs'].includes(classOf(ch))) ? 'tests-or-docs-only' : 'no-source-change' };
  }
  if (source.length > maxFiles) return { reason: 'too-many-files' };
  // Files that existed in the parent: new files cannot be found before they exist.
  const located = source.filter((ch) => ch.oldPath !== undefined && ch.status !== 'A' && ch.status !== 'C' && classifyPath(ch.oldPath, discovery) === 'source');
  if (located.length === 0) return { reason: 'only-new-files' };
  const sourcePaths = [...new Set(source.flatMap((ch) => [ch.oldPath, ch.newPath].filter((p): p is string => p !== undefined)))];
  const substantive = await git(repoDir, ['diff', '-U0', '--ignore-all-space', '--ignore-blank-lines', ...DIFF_FLAGS, parent, c.commit, '--', ...sourcePaths], { signal });
  if (!/^@@ /m.test(substantive)) return { reason: 'whitespace-only' };
  const truth: TruthFile[] = [];
  for (const ch of located) {
    const paths = [ch.oldPath as string, ...(ch.newPath && ch.newPath !== ch.oldPath ? [ch.newPath] : [])];
    const diff = await git(repoDir, ['diff', '-U0', ...DIFF_FLAGS, parent, c.commit, '--', ...paths], { signal });
    const ranges = oldRangesOfDiff(diff);
    if (ranges.length > 0) truth.push({ path: ch.oldPath as string, ranges });
  }
  if (truth.length === 0) return { reason: 'no-line-changes' };
  truth.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { truth };
}

/**
 * Walks the history newest first and keeps commits that make a retrieval task, until
 * `maxCases` are found. The cases come back oldest first, so neighbouring parents differ little
 * and one scratch tree can be moved from case to case cheaply.
 */
export async function mineCases(repoDir: string, options: MiningOptions): Promise<MiningResult> {
  const discovery = resolveDiscoveryOptions(options.discovery);
  const maxFiles = options.maxFiles ?? DEFAULT_MAX_FILES;
  const maxScan = options.maxScan ?? Math.max(500, 30 * options.maxCases);
  const commits = await logCommits(repoDir, options, maxScan);
  const cases: EvalCase[] = [];
  const skipped: MiningResult['skipped'] = {};
  const skippedCommits: MiningResult['skippedCommits'] = [];
  let scanned = 0;
  for (const c of commits) {
    if (cases.length >= options.maxCases) break;
    options.signal?.throwIfAborted();
    scanned++;
    const verdict: { reason: CaseSkipReason } | { truth: TruthFile[] } =
      c.parents.length === 0 ? { reason: 'root' } : c.parents.length > 1 ? { reason: 'merge' } : await judgeCommit(repoDir, c, discovery, maxFiles, options.signal).catch((e: unknown) => {
        // A diff that needs a blob the repository lacks: the commit cannot be judged.
        if (isMissingObjectError(e)) return { reason: 'missing-blobs' as const };
        throw e;
      });
    if ('reason' in verdict) {
      skipped[verdict.reason] = (skipped[verdict.reason] ?? 0) + 1;
      skippedCommits.push({ commit: c.commit, subject: subjectOf(c.message), reason: verdict.reason });
      options.onCommit?.(scanned, cases.length);
      continue;
    }
    options.onCommit?.(scanned, cases.length + 1);
    cases.push({
      commit: c.commit,
      parent: c.parents[0] as string,
      date: new Date(c.timestamp * 1000).toISOString(),
      timestamp: c.timestamp,
      subject: subjectOf(c.message),
      query: cleanCommitMessage(c.message),
      truth: verdict.truth,
    });
  }
  cases.sort((a, b) => a.timestamp - b.timestamp || (a.commit < b.commit ? -1 : 1));
  return { scanned, cases, skipped, skippedCommits };
}
