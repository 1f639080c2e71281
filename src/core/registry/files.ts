// Reading pack files: regular files only, bounded in size, never through a symlink swapped in
// after the path was checked. Every failure is a code, never a throw.
import { constants as fsConstants, promises as fsp, type Stats } from 'node:fs';
import { readAtMost } from '../discovery/read';
import { codeForFsError, errorText, type FileProblemCode } from './diagnostics';

export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

/** What identifies a file version without reading it. `ino`/`ctimeMs` catch replace-by-rename. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

export function stampOf(stats: Stats): FileStamp {
  return { size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino };
}

export function sameStamp(a: FileStamp | null | undefined, b: FileStamp | null | undefined): boolean {
  return !!a && !!b && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino;
}

export type ReadCode = FileProblemCode | 'too-large';

export type ReadOutcome = { ok: true; bytes: Buffer; stamp: FileStamp } | { ok: false; code: ReadCode; message: string };

// The path given is already resolved (realpath): O_NOFOLLOW refuses a symlink put in its place since.
const OPEN_FLAGS = fsConstants.O_RDONLY | (fsConstants.O_NOFOLLOW ?? 0) | (fsConstants.O_NONBLOCK ?? 0);

/** Reads a regular file of at most `maxBytes` bytes. */
export async function readRegularFile(real: string, maxBytes: number): Promise<ReadOutcome> {
  try {
    const handle = await fsp.open(real, OPEN_FLAGS);
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) return { ok: false, code: 'unreadable', message: `${real} is not a regular file` };
      if (stats.size > maxBytes) return { ok: false, code: 'too-large', message: `${stats.size} bytes (limit ${maxBytes})` };
      const bytes = await readAtMost(handle, stats.size, maxBytes);
      if (bytes.length > maxBytes) return { ok: false, code: 'too-large', message: `grew past ${maxBytes} bytes while being read` };
      return { ok: true, bytes, stamp: stampOf(stats) };
    } finally {
      await handle.close();
    }
  } catch (error) {
    return { ok: false, code: codeForFsError(error), message: errorText(error) };
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The text of UTF-8 bytes (BOM stripped), or undefined when they are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}
