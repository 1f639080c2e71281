// git's answer for a file, remembered per root while nothing that answer depends on changed:
// an agent reads dozens of spans per task, and asking git costs two processes per read.
//
// Whether `git ls-files` lists one file depends only on the index, the ignore files git reads
// for it (every `.gitignore` from the work tree's top down to the file's folder,
// `info/exclude`, the excludes file), the config files (they name the excludes file and
// `core.ignoreCase`), and which folders hold a `.git` (the work tree's top, nested
// repositories). Each is fingerprinted as git fingerprints its index entries (device, inode,
// size, mtime, ctime, mode, owner; a missing file is a fingerprint too), and an answer is used
// only while every fingerprint is the same. Only a listed file is remembered: a refusal asks git
// again, and only a change of those files can turn a listed file into a refused one.
//
// A change inside the filesystem's timestamp granularity can leave a fingerprint unchanged
// (git's "racy" entries): an answer is remembered only when none of its files, nor the folders
// holding them (a file created or deleted changes its folder), changed in the RACY_MS before
// git was asked. Every change after that moment bears a later timestamp than the one recorded.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { GitListing } from './gitListing';
import { runGit } from './gitRun';
import { parentOf, toAbsolute } from './paths';

/** Wider than any timestamp granularity a work tree's filesystem has (FAT's 2 s included). */
export const RACY_MS = 3000;

/** Past this many remembered files a root starts over: the memory stays bounded. */
const MAX_ANSWERS_PER_ROOT = 20_000;
const MAX_ROOTS = 32;

interface Answer {
  /** The index mode of a tracked file; undefined for an untracked one. */
  mode: string | undefined;
  /** The fingerprint of the ignore files and `.git` entries between the root and the file. */
  signature: string;
}

interface RootMemory {
  /** Every file each answer of this root depends on: index, config, excludes, ignore files above the root. */
  files: string[];
  signature: string;
  answers: Map<string, Answer>;
}

/** What a fill saw before asking git: the moment, so a change during the fill is caught as racy. */
export interface Asking {
  root: string;
  since: number;
}

interface Fingerprint {
  signature: string;
  /** The latest change (mtime or ctime, ms) among the files and their folders. */
  latestMs: number;
}

export interface GitAnswersOptions {
  /** The clock the racy window is measured on (tests move it). */
  now?: () => number;
}

export class GitAnswers {
  private readonly roots = new Map<string, RootMemory>();
  /** Roots whose repository files changed too recently to be remembered, until when (ms). */
  private readonly racyUntil = new Map<string, number>();

  constructor(private readonly options: GitAnswersOptions = {}) {}

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /**
   * git's listing of exactly these files (relative to root), when each was listed before and
   * nothing its answer depends on changed since; otherwise undefined, and git must be asked.
   */
  lookup(root: string, only: readonly string[]): GitListing | undefined {
    const memory = this.roots.get(root);
    if (!memory || only.length === 0) return undefined;
    if (fingerprint(memory.files)?.signature !== memory.signature) {
      this.roots.delete(root);
      return undefined;
    }
    const modes = new Map<string, string>();
    for (const rel of only) {
      const answer = memory.answers.get(rel);
      if (!answer) return undefined;
      if (fingerprint(filesBetween(root, rel))?.signature !== answer.signature) {
        memory.answers.delete(rel);
        return undefined;
      }
      if (answer.mode !== undefined) modes.set(rel, answer.mode);
    }
    return { paths: [...only], modes };
  }

  /** Marks the moment before git is asked about root. */
  asking(root: string): Asking {
    return { root, since: this.now() };
  }

  /**
   * Remembers the files of `only` that git listed (the answer `asking` preceded), unless any
   * file the answers depend on changed within RACY_MS of that moment.
   */
  async remember(asking: Asking, only: readonly string[], listing: GitListing, signal?: AbortSignal): Promise<void> {
    const { root, since } = asking;
    const listed = new Set(listing.paths);
    const kept = only.filter((rel) => listed.has(rel));
    if (kept.length === 0) return;
    const racy = (latestMs: number) => latestMs >= since - RACY_MS;
    let memory = this.roots.get(root);
    if (memory && fingerprint(memory.files)?.signature !== memory.signature) memory = undefined;
    if (!memory) {
      // Asking git where its files are costs two processes: not again while they stay racy.
      if ((this.racyUntil.get(root) ?? 0) > since) return;
      const files = await filesOfRepository(root, signal);
      const print = files && fingerprint(files);
      if (!files || !print) return;
      if (racy(print.latestMs)) {
        if (this.racyUntil.size >= MAX_ROOTS) this.racyUntil.clear();
        this.racyUntil.set(root, print.latestMs + RACY_MS);
        return;
      }
      this.racyUntil.delete(root);
      memory = { files, signature: print.signature, answers: new Map() };
      if (this.roots.size >= MAX_ROOTS) this.roots.delete(this.roots.keys().next().value as string);
      this.roots.set(root, memory);
    }
    if (memory.answers.size + kept.length > MAX_ANSWERS_PER_ROOT) memory.answers.clear();
    for (const rel of kept) {
      const print = fingerprint(filesBetween(root, rel));
      if (!print || racy(print.latestMs)) continue;
      memory.answers.set(rel, { mode: listing.modes.get(rel), signature: print.signature });
    }
  }
}

/** The answers every eligibility check in this process shares. */
export const sharedGitAnswers = new GitAnswers();

/** The ignore files and `.git` entries of each folder between root (exclusive) and the file. */
function filesBetween(root: string, rel: string): string[] {
  const files: string[] = [];
  for (let dir = parentOf(rel); dir !== ''; dir = parentOf(dir)) {
    const abs = toAbsolute(root, dir);
    files.push(path.join(abs, '.gitignore'), path.join(abs, '.git'));
  }
  return files;
}

/**
 * The files every answer under root depends on, as git itself names them (`rev-parse` for the
 * top, git folder and common folder; `config --show-origin` for the config files, includes too,
 * and the excludes file). Undefined when git cannot say, or names a config git did not read from
 * a file: then nothing is remembered.
 */
async function filesOfRepository(root: string, signal?: AbortSignal): Promise<string[] | undefined> {
  const where = await runGit(root, ['rev-parse', '--path-format=absolute', '--show-toplevel', '--absolute-git-dir', '--git-common-dir'], signal);
  const [top, gitDir, commonDir] = where.stdout.toString('utf8').split('\n');
  if (where.code !== 0 || !top || !gitDir || !commonDir) return undefined;
  const config = await runGit(root, ['config', '-z', '--list', '--show-origin', '--includes'], signal);
  if (config.code !== 0) return undefined;
  // git finds the global config and the default excludes file through $HOME, as here.
  const home = process.env.HOME;
  const xdg = process.env.XDG_CONFIG_HOME || (home ? path.join(home, '.config') : undefined);
  const files = new Set<string>([
    path.join(gitDir, 'index'),
    path.join(gitDir, 'config.worktree'),
    path.join(commonDir, 'config'),
    path.join(commonDir, 'info', 'exclude'),
    '/etc/gitconfig',
  ]);
  // Where a config file would be read from if one appeared.
  for (const file of [process.env.GIT_CONFIG_GLOBAL, process.env.GIT_CONFIG_SYSTEM, home && path.join(home, '.gitconfig'), xdg && path.join(xdg, 'git', 'config')]) {
    if (file) files.add(file);
  }
  let excludes = xdg ? path.join(xdg, 'git', 'ignore') : undefined;
  const fields = config.stdout.toString('utf8').split('\0');
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const origin = fields[i] as string;
    const entry = fields[i + 1] as string;
    if (origin.startsWith('file:')) files.add(path.resolve(top, origin.slice('file:'.length)));
    else if (origin !== 'command line:') return undefined;
    const newline = entry.indexOf('\n');
    if (newline > 0 && entry.slice(0, newline) === 'core.excludesfile') {
      const value = entry.slice(newline + 1);
      excludes = value.startsWith('~/') && home ? path.join(home, value.slice(2)) : path.resolve(top, value);
    }
  }
  if (excludes) files.add(excludes);
  // The ignore files from the top down to the root, and a `.git` appearing at or above the root
  // (below the top) would move the top.
  let real: string;
  try {
    real = fs.realpathSync(root);
  } catch {
    return undefined;
  }
  const fromTop = path.relative(top, real);
  if (fromTop.startsWith('..') || path.isAbsolute(fromTop)) return undefined;
  for (let dir = real; ; dir = path.dirname(dir)) {
    files.add(path.join(dir, '.gitignore'));
    files.add(path.join(dir, '.git'));
    if (dir === top || path.dirname(dir) === dir) break;
  }
  return [...files];
}

/**
 * One signature for the files (in order), or undefined when one cannot be stat'ed for a reason
 * other than being absent. A folder is known by its identity and owner only: its timestamps
 * move with every entry added to it (`.git` with each git command).
 */
function fingerprint(files: readonly string[]): Fingerprint | undefined {
  const parts: string[] = [];
  let latestMs = 0;
  const folders = new Set<string>();
  for (const file of files) {
    const stats = lstat(file);
    if (stats === null) return undefined;
    folders.add(path.dirname(file));
    if (stats === undefined) {
      parts.push('-');
      continue;
    }
    latestMs = Math.max(latestMs, changedMs(stats));
    parts.push(
      stats.isDirectory()
        ? `d${stats.dev}:${stats.ino}:${stats.uid}:${stats.mode}`
        : `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}:${stats.mode}:${stats.uid}`,
    );
  }
  for (const folder of folders) {
    const stats = lstat(folder);
    if (stats) latestMs = Math.max(latestMs, changedMs(stats));
  }
  return { signature: parts.join('|'), latestMs };
}

function changedMs(stats: fs.BigIntStats): number {
  return Number((stats.mtimeNs > stats.ctimeNs ? stats.mtimeNs : stats.ctimeNs) / 1_000_000n);
}

/** lstat with nanoseconds; undefined when absent, null when it cannot be told. */
function lstat(file: string): fs.BigIntStats | undefined | null {
  try {
    return fs.lstatSync(file, { bigint: true, throwIfNoEntry: false });
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOTDIR' ? undefined : null;
  }
}
