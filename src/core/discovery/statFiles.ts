// Type and stat (size, mtime, ctime, inode, device) of each candidate. Synchronous lstat in batches beats
// fs.promises.lstat with bounded concurrency (the thread-pool round trip dominates a syscall
// this small); yielding between batches keeps the event loop responsive
// and lets an abort land.
import * as fs from 'node:fs';
import { basename } from '../languages';
import type { DiscoveredFile, SkippedFile } from '../types';
import { toAbsolute } from './paths';
import type { PathRules } from './rules';

const BATCH = 512;

export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function errorCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : String(error);
}

/** Vanished between listing and stat: a path component is gone or is no longer a directory. */
const isGone = (code: string): boolean => code === 'ENOENT' || code === 'ENOTDIR';

function describeSpecialFile(stats: fs.Stats): string {
  if (stats.isFIFO()) return 'fifo';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'device';
  return 'special file';
}

export interface StatOutcome {
  files: DiscoveredFile[];
  skipped: SkippedFile[];
}

/**
 * lstat's each candidate (never following symlinks). Missing paths (deleted tracked files)
 * and directories (submodules, races) are silently absent; everything else left out is reported.
 */
export async function statCandidates(
  root: string,
  paths: Iterable<string>,
  maxFileBytes: number,
  signal?: AbortSignal,
): Promise<StatOutcome> {
  const files: DiscoveredFile[] = [];
  const skipped: SkippedFile[] = [];
  let sinceYield = 0;
  for (const path of paths) {
    if (++sinceYield >= BATCH) {
      sinceYield = 0;
      await yieldToEventLoop();
      signal?.throwIfAborted();
    }
    let stats: fs.Stats | undefined;
    try {
      stats = fs.lstatSync(toAbsolute(root, path), { throwIfNoEntry: false });
    } catch (error) {
      const code = errorCode(error);
      if (!isGone(code)) skipped.push({ path, reason: 'unreadable', detail: code });
      continue;
    }
    if (!stats || stats.isDirectory()) continue;
    if (stats.isSymbolicLink()) skipped.push({ path, reason: 'symlink' });
    else if (!stats.isFile()) skipped.push({ path, reason: 'not-a-file', detail: describeSpecialFile(stats) });
    else if (stats.size > maxFileBytes) {
      skipped.push({ path, reason: 'too-large', detail: `${stats.size} bytes (limit ${maxFileBytes})` });
    } else files.push({ path, size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino, dev: stats.dev });
  }
  return { files, skipped };
}

/**
 * Among entries whose names are not allowed, finds symlinks to directories (not pruned ones),
 * so a linked directory is reported as a skipped `symlink` rather than vanishing silently.
 * The target is stat'ed, never walked, so a link loop costs one stat.
 */
export async function findDirectoryLinks(
  root: string,
  paths: Iterable<string>,
  rules: PathRules,
  signal?: AbortSignal,
): Promise<SkippedFile[]> {
  const skipped: SkippedFile[] = [];
  let sinceYield = 0;
  for (const path of paths) {
    if (++sinceYield >= BATCH) {
      sinceYield = 0;
      await yieldToEventLoop();
      signal?.throwIfAborted();
    }
    if (rules.isExcludedDirName(basename(path))) continue;
    try {
      const absolute = toAbsolute(root, path);
      if (!fs.lstatSync(absolute, { throwIfNoEntry: false })?.isSymbolicLink()) continue;
      if (fs.statSync(absolute, { throwIfNoEntry: false })?.isDirectory()) {
        skipped.push({ path, reason: 'symlink', detail: 'directory' });
      }
    } catch {
      // A dangling or looping link to something that is not a directory: nothing we would index.
    }
  }
  return skipped;
}
