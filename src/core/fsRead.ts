// Opening a file the way every reader of the working tree must: the last path component is
// never followed if it is a symlink (O_NOFOLLOW, no lstat/open race), and a FIFO or device
// put where a file was can neither block the open (O_NONBLOCK) nor be read (fstat checks).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FileHandle } from 'node:fs/promises';

/** Windows has neither flag; there a FIFO cannot appear in a folder anyway. */
export const READ_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);

/** For files a link may stand for by design (a config file, a registry index): links followed, FIFOs still never waited on. */
export interface ReadFollowing {
  followLinks?: boolean;
}

function flagsFor(options: ReadFollowing | undefined): number {
  return options?.followLinks ? fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) : READ_FLAGS;
}

/** A path that names something other than a regular file (`ENOTREG` is not an errno: it is ours). */
export class NotRegularFileError extends Error {
  override readonly name = 'NotRegularFileError';
  readonly code = 'ENOTREG';
  constructor(
    readonly path: string,
    readonly kind: string,
    /** The kind as discovery's skip details name it (`fifo`, `socket`, `device`, `directory`). */
    readonly detail = kind,
  ) {
    super(`${path} is a ${kind}, not a regular file`);
  }
}

function notRegular(file: string, stats: fs.Stats): NotRegularFileError {
  if (stats.isDirectory()) return new NotRegularFileError(file, 'directory');
  if (stats.isFIFO()) return new NotRegularFileError(file, 'named pipe', 'fifo');
  if (stats.isSocket()) return new NotRegularFileError(file, 'socket');
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return new NotRegularFileError(file, 'device');
  return new NotRegularFileError(file, 'special file', 'special');
}

/** An open descriptor of a regular file and its stats; the caller closes it. */
export function openRegularSync(file: string, options?: ReadFollowing): { fd: number; stats: fs.Stats } {
  const fd = fs.openSync(file, flagsFor(options));
  try {
    const stats = fs.fstatSync(fd);
    if (!stats.isFile()) throw notRegular(file, stats);
    return { fd, stats };
  } catch (e) {
    fs.closeSync(fd);
    throw e;
  }
}

/** The bytes of a regular file (see openRegularSync for what is refused). */
export function readRegularSync(file: string, options?: ReadFollowing): Buffer {
  const { fd } = openRegularSync(file, options);
  try {
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** The bytes of a regular file, read without blocking on a FIFO (the async twin of readRegularSync). */
export async function readRegular(file: string, options?: ReadFollowing): Promise<Buffer> {
  const handle: FileHandle = await fs.promises.open(file, flagsFor(options));
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw notRegular(file, stats);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** A write that would land outside the folder it is confined to (through a symbolic link). */
export class OutsideRootError extends Error {
  override readonly name = 'OutsideRootError';
  readonly code = 'EOUTSIDE';
}

function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Makes `dir` (a folder under `root`) and returns its real path, never leaving the root: each
 * existing component is resolved, and one that is a link to somewhere outside the root's real
 * path is refused rather than followed (a repository can hold a symlinked `.agent-context`).
 */
export function ensureDirectoryInside(root: string, dir: string): string {
  const rel = path.relative(root, dir);
  if (rel.startsWith('..') || path.isAbsolute(rel)) throw new OutsideRootError(`${dir} is outside ${root}`);
  const realRoot = fs.realpathSync(root);
  let current = realRoot;
  for (const part of rel.split(path.sep).filter(Boolean)) {
    const next = path.join(current, part);
    let stats: fs.Stats | undefined;
    try {
      stats = fs.lstatSync(next);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    if (!stats) fs.mkdirSync(next);
    else if (stats.isSymbolicLink()) {
      const real = fs.realpathSync(next);
      if (!isInside(realRoot, real)) throw new OutsideRootError(`${path.relative(realRoot, next)} is a link to ${real}, outside the root: nothing is written there`);
      current = real;
      continue;
    } else if (!stats.isDirectory()) throw new OutsideRootError(`${path.relative(realRoot, next)} is not a folder`);
    current = next;
  }
  return current;
}

/**
 * Reads files of one root by root-relative path, never through a component that leads out of
 * it. O_NOFOLLOW guards only the last component: a folder of the root replaced by a link to a
 * folder elsewhere would otherwise serve that folder's files. So the file's folder must resolve
 * (realpath) inside the root's real path before the open, which also notes which folder that
 * is (dev/ino; both once per folder and reader); the file is opened with O_NOFOLLOW; and after
 * the open the path's folder must still be that folder and the path must still name the opened
 * file (dev/ino): a folder swapped between the check and the open is caught there, for two stats
 * an open rather than a realpath. A link to another folder of the root is followed, as before.
 * One reader serves one query; the next query's reader sees a folder swapped since.
 */
export class RootReader {
  private realRoot: string | undefined;
  /** Folder (root-relative, POSIX; '' the root) -> its identity when it resolves inside the root. */
  private readonly folders = new Map<string, { dev: number; ino: number } | null>();
  private readonly blocks = new ReadBlocks();

  constructor(readonly root: string) {}

  /** The absolute path of a root-relative POSIX path; refuses `..`, absolute and empty paths. */
  absolute(relPath: string): string {
    const parts = relPath.split('/');
    if (relPath === '' || path.isAbsolute(relPath) || parts.some((p) => p === '' || p === '.' || p === '..')) {
      throw new OutsideRootError(`${relPath} is not a path inside the root`);
    }
    return path.join(this.root, ...parts);
  }

  /** lstat of a file of the root; OutsideRootError when its folder resolves outside the root. */
  lstatSync(relPath: string): fs.Stats {
    const abs = this.absolute(relPath);
    this.folderOf(relPath, abs);
    return fs.lstatSync(abs);
  }

  /** An open descriptor of a regular file of the root (see the class); the caller closes it. */
  openSync(relPath: string): { fd: number; stats: fs.Stats } {
    const abs = this.absolute(relPath);
    const folder = this.folderOf(relPath, abs);
    const opened = openRegularSync(abs);
    try {
      const folderNow = fs.statSync(path.dirname(abs), { throwIfNoEntry: false });
      const fileNow = fs.lstatSync(abs, { throwIfNoEntry: false });
      if (folderNow?.dev !== folder.dev || folderNow.ino !== folder.ino || fileNow?.dev !== opened.stats.dev || fileNow.ino !== opened.stats.ino) {
        throw new OutsideRootError(`${relPath} was reached through a folder that changed while it was opened; not read`);
      }
      return opened;
    } catch (e) {
      fs.closeSync(opened.fd);
      throw e;
    }
  }

  /**
   * The bytes of a regular file of the root (see openSync for what is refused); undefined for
   * one with a second name when `singleLink` (`ln .env a.ts`: it may be a file discovery refuses).
   */
  readSync(relPath: string): Buffer;
  readSync(relPath: string, options: { singleLink: true }): Buffer | undefined;
  readSync(relPath: string, options?: { singleLink?: boolean }): Buffer | undefined {
    const { fd, stats } = this.openSync(relPath);
    try {
      return options?.singleLink && stats.nlink > 1 ? undefined : this.blocks.read(fd, stats.size);
    } finally {
      fs.closeSync(fd);
    }
  }

  /** The identity of a file's folder, checked to resolve inside the root. */
  private folderOf(relPath: string, abs: string): { dev: number; ino: number } {
    const slash = relPath.lastIndexOf('/');
    const key = slash < 0 ? '' : relPath.slice(0, slash);
    let folder = this.folders.get(key);
    if (folder === undefined) this.folders.set(key, (folder = this.identityInside(path.dirname(abs))));
    if (!folder) throw new OutsideRootError(`${relPath}: its folder is a link to outside the root, which is not followed`);
    return folder;
  }

  /** A folder's dev/ino when its real path lies in the root's; null when not (or it does not exist). */
  private identityInside(folder: string): { dev: number; ino: number } | null {
    try {
      this.realRoot ??= fs.realpathSync.native(this.root);
      const real = fs.realpathSync.native(folder);
      if (!isInside(this.realRoot, real)) return null;
      const stats = fs.statSync(real);
      return { dev: stats.dev, ino: stats.ino };
    } catch {
      return null;
    }
  }
}

/** A reader's block size: a block is one allocation, which malloc maps apart from its heap. */
const BLOCK_BYTES = 256 * 1024;
/** Files above this get their own buffer, so a block's unused tail stays small. */
const OWN_BUFFER_ABOVE = BLOCK_BYTES / 4;

/**
 * Whole files read by one reader, small ones packed into shared blocks. A references lookup
 * reads thousands of files of a few KB each; as buffers of their own they are that many small
 * mallocs, and freed they stay in glibc's heap, which returns memory only from its top, so an
 * idle server kept its biggest lookup's files resident. A block is one large allocation,
 * returned whole when the last file read into it is dropped.
 */
export class ReadBlocks {
  private block: Buffer | undefined;
  private used = 0;

  /** The bytes of an open file `size` bytes long by its stat: all of them, should it have grown since. */
  read(fd: number, size: number): Buffer {
    // One byte more than the stat says: a read that fills it means the file grew since its stat.
    const want = size + 1;
    const own = want > OWN_BUFFER_ABOVE;
    const into = own ? Buffer.allocUnsafeSlow(want) : this.take(want);
    let got = 0;
    // A regular file reads short only at its end: once `size` bytes are in, no read to find the end.
    while (got < want) {
      const n = fs.readSync(fd, into, got, want - got, null);
      if (n === 0) break;
      got += n;
      if (got === size) break;
    }
    if (got === want) return Buffer.concat([into, fs.readFileSync(fd)]);
    if (!own) this.used -= want - got;
    return into.subarray(0, got);
  }

  /** `n` bytes at the end of the current block, or of a new one. */
  private take(n: number): Buffer {
    if (!this.block || this.used + n > this.block.length) {
      this.block = Buffer.allocUnsafeSlow(BLOCK_BYTES);
      this.used = 0;
    }
    const at = this.used;
    this.used += n;
    return this.block.subarray(at, at + n);
  }
}
