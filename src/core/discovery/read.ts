// Reading and validating file contents: every failure becomes a reported skip, never a throw.
import { nodeCrypto } from '../nodeCrypto';
import { constants as fsConstants, promises as fsp, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { languageForPath } from '../languages';
import type { DiscoveredFile, SkippedFile, SkipReason, SourceDocument } from '../types';
import { DEFAULT_MAX_FILE_BYTES } from './options';
import { normaliseRelPath, parentOf, relativeToRoot, toAbsolute } from './paths';
import { timed } from '../timings';

/** How far into a file a NUL byte marks it as binary (git's heuristic looks at a similar prefix). */
const BINARY_SNIFF_BYTES = 1024;
const DEFAULT_READ_CONCURRENCY = 16;

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
  let buffer = Buffer.allocUnsafe(Math.min(expectedSize, limit) + 1);
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length > limit) break;
      const larger = Buffer.allocUnsafe(Math.min(buffer.length * 2, limit + 1));
      buffer.copy(larger, 0, 0, length);
      buffer = larger;
    }
    const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
    if (bytesRead === 0) break;
    length += bytesRead;
  }
  return buffer.subarray(0, length);
}

/** Directory (relative) -> whether it and its ancestors are real directories, not symlinks. */
type DirectoryVerdicts = Map<string, Promise<'directory' | 'symlink' | 'other'>>;

/**
 * O_NOFOLLOW guards only the last path component; a symlinked directory on the way
 * (`linked/secret.txt`, possibly pointing outside the root) is refused here.
 */
function directoryChain(root: string, dirRel: string, verdicts: DirectoryVerdicts): Promise<'directory' | 'symlink' | 'other'> {
  if (dirRel === '') return Promise.resolve('directory');
  let verdict = verdicts.get(dirRel);
  if (!verdict) {
    verdict = directoryChain(root, parentOf(dirRel), verdicts).then(async (above) => {
      if (above !== 'directory') return above;
      const stats = await fsp.lstat(toAbsolute(root, dirRel)).catch(() => undefined);
      return stats?.isSymbolicLink() ? 'symlink' : stats?.isDirectory() ? 'directory' : 'other';
    });
    verdicts.set(dirRel, verdict);
  }
  return verdict;
}

/** Reads and validates one file. Never throws: every failure is a `skipped` entry. */
export function loadDocument(root: string, file: DiscoveredFile | string, options: ReadOptions = {}): Promise<LoadOutcome> {
  return readDocument(path.resolve(root), file, options, new Map());
}

async function readDocument(
  root: string,
  file: DiscoveredFile | string,
  options: ReadOptions,
  verdicts: DirectoryVerdicts,
): Promise<LoadOutcome> {
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
    if ((await directoryChain(root, parentOf(relPath), verdicts)) === 'symlink') {
      return skip(relPath, 'symlink', 'inside a symlinked directory');
    }
    if (NOFOLLOW === undefined && (await fsp.lstat(absolute)).isSymbolicLink()) return skip(relPath, 'symlink');
    const handle = await fsp.open(absolute, OPEN_FLAGS);
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) return skip(relPath, 'not-a-file', kindOfNonFile(stats));
      // Its other names cannot be found without searching the disk, and one may be refused
      // (`ln .env notes.txt`); checkouts never make hard links, and package managers that do
      // (pnpm) make them under pruned folders.
      if (stats.nlink > 1) return skip(relPath, 'hard-link', `${stats.nlink} names`);
      if (stats.size > maxFileBytes) return skip(relPath, 'too-large', `${stats.size} bytes (limit ${maxFileBytes})`);
      bytes = await readAtMost(handle, stats.size, maxFileBytes);
      mtimeMs = stats.mtimeMs;
    } finally {
      await handle.close();
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
 * Reads many files with bounded concurrency; docs (and skips) follow input order.
 * Throws only with the signal's reason when aborted.
 */
export async function loadDocuments(
  root: string,
  files: Array<DiscoveredFile | string>,
  opts: { concurrency?: number; signal?: AbortSignal } & ReadOptions = {},
): Promise<{ docs: SourceDocument[]; skipped: SkippedFile[] }> {
  const { signal } = opts;
  const concurrency = Math.max(1, Math.floor(opts.concurrency ?? DEFAULT_READ_CONCURRENCY));
  const absoluteRoot = path.resolve(root);
  const verdicts: DirectoryVerdicts = new Map();
  const outcomes: LoadOutcome[] = new Array(files.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length && !signal?.aborted) {
      const index = next++;
      outcomes[index] = await readDocument(absoluteRoot, files[index], opts, verdicts);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, worker));
  signal?.throwIfAborted();

  const docs: SourceDocument[] = [];
  const skipped: SkippedFile[] = [];
  for (const outcome of outcomes) {
    if ('doc' in outcome) docs.push(outcome.doc);
    else skipped.push(outcome.skipped);
  }
  return { docs, skipped };
}
