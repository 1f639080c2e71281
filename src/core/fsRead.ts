// Opening a file the way every reader of the working tree must: the last path component is
// never followed if it is a symlink (O_NOFOLLOW, no lstat/open race), and a FIFO or device
// put where a file was can neither block the open (O_NONBLOCK) nor be read (fstat checks).
import * as fs from 'node:fs';

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
