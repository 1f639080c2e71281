// Reading and validating file contents: every failure becomes a reported skip, never a throw.
import { nodeCrypto } from '../nodeCrypto';
import { closeSync, constants as fsConstants, fstatSync, lstatSync, openSync, readSync, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { languageForPath } from '../languages';
import type { DiscoveredFile, SkippedFile, SkipReason, SourceDocument } from '../types';
import { DEFAULT_MAX_FILE_BYTES } from './options';
import { normaliseRelPath, parentOf, relativeToRoot, toAbsolute } from './paths';
import { timed } from '../timings';

/** How far into a file a NUL byte marks it as binary (git's heuristic looks at a similar prefix). */
const BINARY_SNIFF_BYTES = 1024;
/**
 * How long a batch read holds its thread before letting other work run. Files are read with
 * synchronous calls: a file from the page cache costs a few microseconds that way, where each
 * of its five asynchronous calls (open, stat, read, read to EOF, close) went through libuv's
 * thread pool and a promise. Incremental refreshes read on the thread that answers queries,
 * so a slice is kept short: a query waits at most about this long (and one file's read).
 */
const READ_SLICE_MS = 2;

/**
 * O_NOFOLLOW refuses a symlink at open time (no lstat/open race); O_NONBLOCK keeps a FIFO
 * from blocking the open forever before fstat can reject it. Windows has neither flag.
 */
const NOFOLLOW = fsConstants.O_NOFOLLOW;
const OPEN_FLAGS = fsConstants.O_RDONLY | (NOFOLLOW ?? 0) | (fsConstants.O_NONBLOCK ?? 0);

export interface ReadOptions {
  /** Files larger than this (at read time) are skipped as `too-large`. Default 1 MiB. */
  maxFileBytes?: number;
}

export type LoadOutcome = { doc: SourceDocument } | { skipped: SkippedFile };

/** Hash helper used by the index for change detection: SHA-256 hex of raw bytes. */
export function hashBytes(bytes: Uint8Array): string {
  return nodeCrypto().createHash('sha256').update(bytes).digest('hex');
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function skip(relPath: string, reason: SkipReason, detail?: string): { skipped: SkippedFile } {
  return { skipped: detail === undefined ? { path: relPath, reason } : { path: relPath, reason, detail } };
}

function skipForError(relPath: string, error: unknown): { skipped: SkippedFile } {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? String(error);
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return skip(relPath, 'vanished');
    case 'ELOOP': // Linux/macOS refuse a symlink under O_NOFOLLOW with ELOOP...
    case 'EMLINK': // ...FreeBSD with EMLINK
      return skip(relPath, 'symlink');
    case 'EISDIR':
      return skip(relPath, 'not-a-file', 'directory');
    case 'EFBIG':
      return skip(relPath, 'too-large', code);
    default:
      return skip(relPath, 'unreadable', code);
  }
}

function kindOfNonFile(stats: Stats): string {
  if (stats.isDirectory()) return 'directory';
  if (stats.isFIFO()) return 'fifo';
  if (stats.isSocket()) return 'socket';
  return 'device';
}

/** The relative POSIX path a caller means, or undefined when it is not inside root. */
function relativePathOf(root: string, file: DiscoveredFile | string): string | undefined {
  const given = typeof file === 'string' ? file : file.path;
  return path.isAbsolute(given) ? relativeToRoot(root, given) : normaliseRelPath(given);
}

/**
 * Reads from the start until EOF, but never more than `limit + 1` bytes: a file still being
 * written (a growing log) cannot make us buffer past the cap. More than `limit` bytes back
 * means it grew past the cap after fstat.
 */
export async function readAtMost(handle: FileHandle, expectedSize: number, limit: number): Promise<Buffer> {
  const into = new CappedBuffer(expectedSize, limit);
  while (into.makeRoom()) {
    const { bytesRead } = await handle.read(into.buffer, into.length, into.buffer.length - into.length, into.length);
    if (bytesRead === 0) break;
    into.length += bytesRead;
  }
  return into.bytes();
}

/** The bytes of a file read so far: sized for the size it had, grown as it turns out longer. */
class CappedBuffer {
  buffer: Buffer;
  length = 0;

  constructor(
    expectedSize: number,
    private readonly limit: number,
  ) {
    this.buffer = Buffer.allocUnsafe(Math.min(expectedSize, limit) + 1);
  }

  /** Makes room for the next read; false once more than `limit` bytes are held (the read stops). */
  makeRoom(): boolean {
    if (this.length < this.buffer.length) return true;
    if (this.length > this.limit) return false;
    const larger = Buffer.allocUnsafe(Math.min(this.buffer.length * 2, this.limit + 1));
    this.buffer.copy(larger, 0, 0, this.length);
    this.buffer = larger;
    return true;
  }

  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

/** Directory (relative) -> whether it and its ancestors are real directories, not symlinks. */
type DirectoryVerdicts = Map<string, 'directory' | 'symlink' | 'other'>;

/**
 * O_NOFOLLOW guards only the last path component; a symlinked directory on the way
 * (`linked/secret.txt`, possibly pointing outside the root) is refused here.
 */
function directoryChain(root: string, dirRel: string, verdicts: DirectoryVerdicts): 'directory' | 'symlink' | 'other' {
  if (dirRel === '') return 'directory';
  let verdict = verdicts.get(dirRel);
  if (verdict === undefined) {
    const above = directoryChain(root, parentOf(dirRel), verdicts);
    if (above !== 'directory') verdict = above;
    else {
      let stats: Stats | undefined;
      try {
        stats = lstatSync(toAbsolute(root, dirRel));
      } catch {
        stats = undefined;
      }
      verdict = stats?.isSymbolicLink() ? 'symlink' : stats?.isDirectory() ? 'directory' : 'other';
    }
    verdicts.set(dirRel, verdict);
  }
  return verdict;
}

/**
 * Reads from the start until EOF, but never more than `limit + 1` bytes (see readAtMost). A
 * read that fills less than it asked for has met the end of the file: no second call to see 0.
 */
function readAtMostSync(fd: number, expectedSize: number, limit: number): Buffer {
  const into = new CappedBuffer(expectedSize, limit);
  while (into.makeRoom()) {
    const wanted = into.buffer.length - into.length;
    const bytesRead = readSync(fd, into.buffer, into.length, wanted, into.length);
    into.length += bytesRead;
    if (bytesRead < wanted) break;
  }
  return into.bytes();
}

/** Reads and validates one file. Never throws: every failure is a `skipped` entry. */
export function loadDocument(root: string, file: DiscoveredFile | string, options: ReadOptions = {}): Promise<LoadOutcome> {
  return Promise.resolve(readDocument(path.resolve(root), file, options, new Map()));
}

function readDocument(root: string, file: DiscoveredFile | string, options: ReadOptions, verdicts: DirectoryVerdicts): LoadOutcome {
  const given = typeof file === 'string' ? file : file.path;
  const relPath = relativePathOf(root, file);
  if (relPath === undefined) return skip(given, 'unreadable', 'outside the root');
  if (relPath === '') return skip(given, 'not-a-file', 'directory');
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const absolute = toAbsolute(root, relPath);

  let bytes: Buffer;
  let mtimeMs: number;
  try {
    // Anything but a symlink on the way lets open report the precise error (ENOENT, ENOTDIR...).
    if (directoryChain(root, parentOf(relPath), verdicts) === 'symlink') {
      return skip(relPath, 'symlink', 'inside a symlinked directory');
    }
    if (NOFOLLOW === undefined && lstatSync(absolute).isSymbolicLink()) return skip(relPath, 'symlink');
    const fd = openSync(absolute, OPEN_FLAGS);
    try {
      const stats = fstatSync(fd);
      if (!stats.isFile()) return skip(relPath, 'not-a-file', kindOfNonFile(stats));
      // Its other names cannot be found without searching the disk, and one may be refused
      // (`ln .env notes.txt`); checkouts never make hard links, and package managers that do
      // (pnpm) make them under pruned folders.
      if (stats.nlink > 1) return skip(relPath, 'hard-link', `${stats.nlink} names`);
      if (stats.size > maxFileBytes) return skip(relPath, 'too-large', `${stats.size} bytes (limit ${maxFileBytes})`);
      bytes = readAtMostSync(fd, stats.size, maxFileBytes);
      mtimeMs = stats.mtimeMs;
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return skipForError(relPath, error);
  }
  if (bytes.length > maxFileBytes) return skip(relPath, 'too-large', `grew past the limit of ${maxFileBytes} bytes while being read`);
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return skip(relPath, 'binary');

  let text: string;
  try {
    // With ignoreBOM left false, the decoder strips a leading UTF-8 BOM.
    text = timed('read', () => utf8.decode(bytes));
  } catch {
    return skip(relPath, 'invalid-utf8');
  }
  return {
    doc: {
      path: relPath,
      text,
      size: bytes.length,
      mtimeMs,
      hash: timed('hash', () => hashBytes(bytes)),
      language: languageForPath(relPath)?.id ?? 'text',
    },
  };
}

/**
 * Reads many files, a slice of them at a time between turns of the event loop; docs (and
 * skips) follow input order. Throws only with the signal's reason when aborted.
 */
export async function loadDocuments(
  root: string,
  files: Array<DiscoveredFile | string>,
  opts: { signal?: AbortSignal } & ReadOptions = {},
): Promise<{ docs: SourceDocument[]; skipped: SkippedFile[] }> {
  const { signal } = opts;
  const absoluteRoot = path.resolve(root);
  const verdicts: DirectoryVerdicts = new Map();
  const docs: SourceDocument[] = [];
  const skipped: SkippedFile[] = [];
  let next = 0;
  while (next < files.length && !signal?.aborted) {
    // A turn first, also before the first file: a read started ahead of its use (the index's
    // pipeline) must not hold up what its caller does next.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const sliceEnd = performance.now() + READ_SLICE_MS;
    while (next < files.length && !signal?.aborted) {
      const outcome = readDocument(absoluteRoot, files[next++] as DiscoveredFile | string, opts, verdicts);
      if ('doc' in outcome) docs.push(outcome.doc);
      else skipped.push(outcome.skipped);
      if (performance.now() >= sliceEnd) break;
    }
  }
  signal?.throwIfAborted();
  return { docs, skipped };
}
