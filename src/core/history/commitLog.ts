// What the repository's own history says about where changes go: each past commit's message
// words and the files it changed, read from `git log` of HEAD's ancestry (local, nothing
// fetched). Kept per HEAD in the store, so a one-shot query reads a file instead of running
// `git log` again; a folder that is not in a repository (or has no git) has no history.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runGit } from '../discovery/gitRun';
import { writeFileAtomic } from '../store/atomic';
import { STORE_MARKER } from '../store/owner';
import { HISTORY_FILE } from '../store/storeFiles';
import { messageWords } from './messageWords';

/** One past commit: its message's words (subject and the start of its body) and the files it changed. */
export interface PastCommit {
  subject: string;
  words: string[];
  files: string[];
}

export interface CommitLog {
  /** The commit HEAD was at. */
  head: string;
  commits: PastCommit[];
}

/** Commits read back from HEAD: enough for a repository's recurring kinds of change. */
export const MAX_COMMITS = 2000;
/** A commit touching more files than this (a reformat, a rename sweep) says nothing about where one change goes. */
const MAX_FILES_PER_COMMIT = 50;
/** Characters of a message read: its subject and the start of its body. */
const MESSAGE_CHARS = 400;
/** `git log` of a large repository takes about a second; past this the log is not used. */
const LOG_TIMEOUT_MS = 10_000;
const CACHE_VERSION = 1;

const COMMIT_ID = /^[0-9a-f]{40,64}$/;

/** The commit HEAD of the repository holding `root` is at, or undefined (no repository, no git). */
export async function headOf(root: string): Promise<string | undefined> {
  // Read from the repository's files when they are plain (a query asks on every file search);
  // git itself answers anything else (a symbolic ref to a packed or missing ref, odd layouts).
  const read = headFromFiles(root);
  if (read !== 'ask-git') return read;
  const r = await runGit(root, ['rev-parse', '--verify', '-q', 'HEAD']);
  const head = r.stdout.toString('utf8').trim();
  return r.code === 0 && COMMIT_ID.test(head) ? head : undefined;
}

/**
 * HEAD's commit from the `.git` found at or above `root`: a detached HEAD, or a branch whose ref
 * is a loose file. Undefined when no folder above holds a `.git`; 'ask-git' when it must.
 */
export function headFromFiles(root: string): string | undefined | 'ask-git' {
  try {
    for (let dir = path.resolve(root); ; dir = path.dirname(dir)) {
      const dotGit = path.join(dir, '.git');
      const st = fs.statSync(dotGit, { throwIfNoEntry: false });
      if (st) {
        // A worktree's or submodule's `.git` file points elsewhere, with refs shared: git knows.
        if (!st.isDirectory()) return 'ask-git';
        const head = fs.readFileSync(path.join(dotGit, 'HEAD'), 'utf8').trim();
        if (COMMIT_ID.test(head)) return head;
        const ref = /^ref: (refs\/[^\s]+)$/.exec(head)?.[1];
        if (!ref || ref.includes('..')) return 'ask-git';
        const id = fs.readFileSync(path.join(dotGit, ref), { encoding: 'utf8', flag: 'r' }).trim();
        return COMMIT_ID.test(id) ? id : 'ask-git';
      }
      if (path.dirname(dir) === dir) return undefined;
    }
  } catch {
    return 'ask-git';
  }
}

/** The first MAX_COMMITS non-merge commits of HEAD's ancestry, paths relative to `root`. */
export async function readCommitLog(root: string, head: string): Promise<CommitLog | undefined> {
  const r = await runGit(
    root,
    ['-c', 'core.quotepath=off', 'log', '--no-merges', '--no-renames', `-n${MAX_COMMITS}`, '--format=%x1e%s%x00%b%x00', '--name-only', '--relative', head, '--'],
    AbortSignal.timeout(LOG_TIMEOUT_MS),
  );
  if (r.code !== 0) return undefined;
  return { head, commits: parseLog(r.stdout.toString('utf8')) };
}

/** `git log --format=%x1e%s%x00%b%x00 --name-only` as commits. */
export function parseLog(out: string): PastCommit[] {
  const commits: PastCommit[] = [];
  for (const record of out.split('\x1e')) {
    const [subject = '', body = '', names = ''] = record.split('\x00');
    const files = names.split('\n').map((f) => f.trim()).filter((f) => f !== '');
    if (files.length === 0 || files.length > MAX_FILES_PER_COMMIT) continue;
    const words = messageWords(`${subject}\n${body}`.slice(0, MESSAGE_CHARS));
    if (words.length > 0) commits.push({ subject: subject.trim(), words, files });
  }
  return commits;
}

/**
 * The commit log at `head`, from the store's copy for it or read anew (and kept there, replacing
 * the copy for an older HEAD). Undefined when git cannot read it.
 */
export async function commitLogAt(root: string, storeDir: string, head: string): Promise<CommitLog | undefined> {
  const file = path.join(storeDir, `history-${head}.json`);
  try {
    const kept = JSON.parse(fs.readFileSync(file, 'utf8')) as { version: number } & CommitLog;
    if (kept.version === CACHE_VERSION && kept.head === head && Array.isArray(kept.commits)) return { head, commits: kept.commits };
  } catch {
    // not kept yet, or unreadable: read the log again
  }
  const log = await readCommitLog(root, head);
  if (log) keep(storeDir, file, log);
  return log;
}

/**
 * Writes the log beside the index (crash-safely) and removes the copies kept for other HEADs.
 * Only into a store Cairn made (its marker is there): nothing is written into another folder.
 */
function keep(storeDir: string, file: string, log: CommitLog): void {
  try {
    if (!fs.existsSync(path.join(storeDir, STORE_MARKER))) return;
    writeFileAtomic(file, JSON.stringify({ version: CACHE_VERSION, ...log }));
    for (const name of fs.readdirSync(storeDir)) {
      if (HISTORY_FILE.test(name) && path.join(storeDir, name) !== file) fs.rmSync(path.join(storeDir, name), { force: true });
    }
  } catch {
    // a store that cannot be written reads the log again next time
  }
}

/** A root's repository's past commits at its current HEAD, read (or loaded from the store) once per HEAD. */
export class PastCommits {
  private last?: { head: string; log: Promise<CommitLog | undefined> };

  constructor(
    private readonly root: string,
    private readonly storeDir: string,
  ) {}

  /** None outside a repository, or when git is missing. */
  async atHead(): Promise<CommitLog | undefined> {
    const head = await headOf(this.root);
    if (!head) return undefined;
    if (this.last?.head !== head) {
      // Shared by every later query at this HEAD. A log git could not give is asked for again next time.
      const log: Promise<CommitLog | undefined> = commitLogAt(this.root, this.storeDir, head).then((l) => {
        if (!l && this.last?.log === log) this.last = undefined;
        return l;
      });
      this.last = { head, log };
    }
    return this.last.log;
  }
}
