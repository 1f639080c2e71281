// Opening a file the way every reader of the working tree must: the last path component is
// never followed if it is a symlink (O_NOFOLLOW, no lstat/open race), and a FIFO or device
// put where a file was can neither block the open (O_NONBLOCK) nor be read (fstat checks).
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Windows has neither flag; there a FIFO cannot appear in a folder anyway. */
export const READ_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);

/** A path that names something other than a regular file (`ENOTREG` is not an errno: it is ours). */
export class NotRegularFileError extends Error {
  override readonly name = 'NotRegularFileError';
  readonly code = 'ENOTREG';
  constructor(readonly path: string, readonly kind: string) {
    super(`${path} is a ${kind}, not a regular file`);
  }
}

function kindOf(stats: fs.Stats): string {
  if (stats.isDirectory()) return 'directory';
  if (stats.isFIFO()) return 'named pipe';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'device';
  return 'special file';
}

/** An open descriptor of a regular file and its stats; the caller closes it. */
export function openRegularSync(file: string): { fd: number; stats: fs.Stats } {
  const fd = fs.openSync(file, READ_FLAGS);
  try {
    const stats = fs.fstatSync(fd);
    if (!stats.isFile()) throw new NotRegularFileError(file, kindOf(stats));
    return { fd, stats };
  } catch (e) {
    fs.closeSync(fd);
    throw e;
  }
}

/** The bytes of a regular file (see openRegularSync for what is refused). */
export function readRegularSync(file: string): Buffer {
  const { fd } = openRegularSync(file);
  try {
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
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
