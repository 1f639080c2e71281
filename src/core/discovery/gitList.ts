// Candidate listing through git, so .gitignore, .git/info/exclude and the global excludes file
// are honoured exactly as git honours them, at git's speed (index + untracked cache).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { GitAnswers } from './gitAnswers';
import type { GitListing } from './gitListing';
import { runGit } from './gitRun';

export type { GitListing } from './gitListing';

export const GIT_MODE_SYMLINK = '120000';
export const GIT_MODE_SUBMODULE = '160000';

/** Past this many characters of pathspecs, list everything and filter in memory (command-line limits). */
const MAX_PATHSPEC_CHARS = 16_000;

/** How long the untracked listing may run past the tracked one before its ignore files are probed. */
const PROBE_AFTER_MS = 200;

function splitNul(output: Buffer): string[] {
  return output
    .toString('utf8')
    .split('\0')
    .filter((entry) => entry.length > 0);
}

/**
 * Lists candidates under root with `git ls-files` (cwd = root, so paths are relative to root
 * even when root is a subdirectory of the work tree). Returns undefined when git cannot
 * answer: git missing, root not inside a work tree, or root itself ignored by the enclosing
 * repository (a gitignored folder opened on its own is still meant to be indexed).
 * `only` restricts the listing to these relative paths or directories (literal pathspecs).
 */
export async function listWithGit(
  root: string,
  only?: readonly string[],
  signal?: AbortSignal,
  /** Filled with the special ignore files (absolute paths) that made git's listing unusable. */
  special?: string[],
  /** Answers for `only` given before, kept while nothing they depend on changed (gitAnswers.ts). */
  answers?: GitAnswers,
): Promise<GitListing | undefined> {
  if (!answers || !only) return listFromGit(root, only, signal, special);
  const remembered = answers.lookup(root, only);
  if (remembered) return remembered;
  const asking = answers.asking(root);
  const listing = await listFromGit(root, only, signal, special);
  if (listing) await answers.remember(asking, only, listing, signal);
  return listing;
}

async function listFromGit(root: string, only: readonly string[] | undefined, signal: AbortSignal | undefined, special: string[] | undefined): Promise<GitListing | undefined> {
  const pathspecs = only && only.reduce((n, p) => n + p.length + 1, 0) <= MAX_PATHSPEC_CHARS ? ['--', ...only] : [];
  const base = ['-c', 'core.quotepath=off', '--literal-pathspecs', 'ls-files', '-z'];
  // Two listings instead of `--cached --others` in one: the tracked one carries index modes,
  // which reveal symlinks and submodules without a stat, and the formats cannot be mixed unambiguously.
  const stopUntracked = new AbortController();
  const untrackedRun = runGit(root, [...base, '--others', '--exclude-standard', ...pathspecs], signal ? AbortSignal.any([signal, stopUntracked.signal]) : stopUntracked.signal);
  const tracked = await runGit(root, [...base, '--cached', '--stage', ...pathspecs], signal);
  // Only a listing still running can be blocked on a FIFO: most end before a probe would.
  let untracked = await Promise.race([untrackedRun, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), PROBE_AFTER_MS).unref())]);
  if (!untracked && tracked.code === 0) {
    // First where git surely reads (cheap), then, while git still runs, the whole tree: a folder
    // holding only untracked files has its .gitignore read too. The scan stops when git ends.
    let found = specialIgnoreFiles(root, splitNul(tracked.stdout));
    if (found.length === 0) {
      const stopScan = new AbortController();
      const scan = scanForSpecialIgnoreFiles(root, stopScan.signal);
      const first = await Promise.race([untrackedRun, scan]);
      stopScan.abort();
      if (Array.isArray(first)) found = first;
      else untracked = first;
    }
    if (found.length > 0) {
      // git would block forever opening it: the walk lists the tree instead, and reports the file.
      special?.push(...found);
      stopUntracked.abort();
      await untrackedRun;
      return undefined;
    }
  }
  untracked ??= await untrackedRun;
  if (tracked.code !== 0 || untracked.code !== 0) return undefined;

  const modes = new Map<string, string>();
  const paths = new Set<string>();
  for (const record of splitNul(tracked.stdout)) {
    // `<mode> <object> <stage>\t<path>`; unmerged paths appear once per stage.
    const tab = record.indexOf('\t');
    if (tab < 0) continue;
    const path = record.slice(tab + 1);
    modes.set(path, record.slice(0, record.indexOf(' ')));
    paths.add(path);
  }
  for (const path of splitNul(untracked.stdout)) {
    // Untracked nested repositories are listed as `dir/`: a separate project, not our files.
    if (!path.endsWith('/')) paths.add(path);
  }

  if (paths.size === 0 && (await isRootIgnored(root, signal))) return undefined;
  return { paths: [...paths], modes };
}

const isSpecial = (stats: fs.Stats | fs.Dirent): boolean => !stats.isFile() && !stats.isDirectory() && !stats.isSymbolicLink();

/**
 * The ignore files git reads for the untracked listing that are a FIFO, socket or device: git
 * opens `.gitignore` and `info/exclude` blocking, so one FIFO would hang it (and the writer
 * lock held meanwhile). Probed once the listing runs long, where git surely reads them: the
 * root and the folders above it up to the work tree's top, and every folder holding a tracked
 * file. Folders of untracked files only are left to scanForSpecialIgnoreFiles.
 */
function specialIgnoreFiles(root: string, trackedRecords: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const record of trackedRecords) {
    const tab = record.indexOf('\t');
    for (let slash = record.lastIndexOf('/'); slash > tab; slash = record.lastIndexOf('/', slash - 1)) {
      const folder = record.slice(tab + 1, slash);
      if (folders.has(folder)) break;
      folders.add(folder);
    }
  }
  const candidates = [...folders].map((folder) => path.join(root, ...folder.split('/'), '.gitignore'));
  for (let dir = path.resolve(root); ; dir = path.dirname(dir)) {
    candidates.push(path.join(dir, '.gitignore'));
    const dotGit = fs.lstatSync(path.join(dir, '.git'), { throwIfNoEntry: false });
    if (dotGit) {
      if (dotGit.isDirectory()) candidates.push(path.join(dir, '.git', 'info', 'exclude'));
      break;
    }
    if (path.dirname(dir) === dir) break;
  }
  return candidates.filter((file) => {
    try {
      const stats = fs.lstatSync(file, { throwIfNoEntry: false });
      return stats !== undefined && isSpecial(stats);
    } catch {
      return false;
    }
  });
}

/**
 * Every special `.gitignore` under root, folder by folder (readdir's entry types, no stat, no
 * link followed, `.git` skipped); resolves only when it found some, so a race with git's
 * listing is won by whichever decides first. Stops at `signal`.
 */
async function scanForSpecialIgnoreFiles(root: string, signal: AbortSignal): Promise<string[]> {
  const found: string[] = [];
  const queue = [path.resolve(root)];
  while (queue.length > 0 && !signal.aborted) {
    const dir = queue.shift() as string;
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (entry.isDirectory()) {
        if (entry.name !== '.git') queue.push(path.join(dir, entry.name));
      } else if (entry.name === '.gitignore' && isSpecial(entry)) found.push(path.join(dir, entry.name));
    }
  }
  // Nothing special: git is slow, not blocked; only git's own end settles the race then.
  return found.length > 0 ? found : new Promise<string[]>(() => undefined);
}

async function isRootIgnored(root: string, signal?: AbortSignal): Promise<boolean> {
  const run = await runGit(root, ['check-ignore', '-q', '--', '.'], signal);
  return run.code === 0;
}

/** Whether git ignores a path under root (`.gitignore`, `.git/info/exclude`, the global excludes file). */
export async function isIgnoredByGit(root: string, relPath: string, signal?: AbortSignal): Promise<boolean> {
  // check-ignore takes paths, not pathspecs (it refuses `--literal-pathspecs`): no glob applies.
  const run = await runGit(root, ['check-ignore', '-q', '--', relPath], signal);
  return run.code === 0;
}

/** Whether root lies inside a git work tree git can read (git installed, repository valid). */
export async function isInsideWorkTree(root: string, signal?: AbortSignal): Promise<boolean> {
  const run = await runGit(root, ['rev-parse', '--is-inside-work-tree'], signal);
  return run.code === 0 && run.stdout.toString('utf8').trim() === 'true';
}
