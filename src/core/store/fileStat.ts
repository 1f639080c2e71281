// When a file's lstat may vouch for the content the index read from it, so a refresh skips the
// read. Git's rule: size, mtime, ctime, inode and device must all match what was recorded, and
// an entry recorded "racily" (its file changed within a timestamp tick of the read) is
// re-hashed, because a later write in that same tick leaves every one of them as it was.
import type { FileStat } from '../types';

/**
 * How close to the start of a refresh a change makes its entry racy. Timestamps are coarser
 * than the clock that reads them: FAT keeps 2 s, HFS+ and some NFS servers 1 s, Linux a
 * kernel tick; a network share's clock may also run a little ahead of ours.
 */
export const RACY_WINDOW_MS = 2000;

export function sameFileStat(a: FileStat, b: FileStat): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino && a.dev === b.dev;
}

/**
 * Whether the stat of a file read by a refresh that started at `readStartedAtMs` cannot vouch
 * for what was read: the file changed so close to the read (or claims a time after it) that a
 * second write could have kept every field. ctime counts because mtime can be set back and
 * ctime cannot; the next refresh hashes such a file instead of trusting its stat.
 */
export function isRacy(stat: FileStat, readStartedAtMs: number): boolean {
  return Math.max(stat.mtimeMs, stat.ctimeMs) >= readStartedAtMs - RACY_WINDOW_MS;
}

/** The stat fields of a discovered file (without its path or anything else it carries). */
export function statOf(f: FileStat): FileStat {
  return { size: f.size, mtimeMs: f.mtimeMs, ctimeMs: f.ctimeMs, ino: f.ino, dev: f.dev };
}
