// Writing a client's configuration or instructions file the way the user left it: a rewrite keeps
// the file's permission bits (a 0600 `.mcp.json` holding another server's token stays 0600), a
// file that is not writable is refused rather than replaced (renaming over it would succeed, since
// that needs only the folder's permission), and a symbolic link is never followed or replaced.
// Crash-safe through core/store/atomic.ts: a temporary file beside the target, fsync, rename.
import * as fs from 'node:fs';
import { writeFileAtomic } from '../../core/clientApi';
import { ConfigError } from './jsonConfig';

/** Permission bits of a file setup creates (before the umask). */
const NEW_FILE_MODE = 0o644;

/**
 * Why `file` (shown as `shown`) must not be rewritten, or undefined when it may be: a link, not a
 * regular file, or not writable by this user. A missing file may be created.
 */
export function rewriteRefusal(file: string, shown: string): string | undefined {
  let stats: fs.Stats;
  try {
    stats = fs.lstatSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  if (stats.isSymbolicLink()) return `${shown} is a symbolic link: edit the file it points to by hand; nothing was written`;
  if (!stats.isFile()) return `${shown} is not a regular file; nothing was written`;
  // The owner's write bit, not only access(2): for root every file passes access(W_OK), and a
  // cleared write bit is how a user marks a file as not to be changed.
  if ((stats.mode & 0o200) === 0 || !writable(file)) {
    return `${shown} is read-only (mode ${(stats.mode & 0o777).toString(8).padStart(4, '0')}): cairn setup does not replace it; make it writable (chmod u+w ${shown}) and run again, or add the entry by hand; nothing was written`;
  }
  return undefined;
}

function writable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Replaces (or creates) `file` with `text`, keeping an existing file's mode and, where allowed, its owner. */
export function writeKeepingMode(file: string, shown: string, text: string): void {
  const refusal = rewriteRefusal(file, shown);
  if (refusal) throw new ConfigError(refusal);
  const old = statOrUndefined(file);
  const givenAway = old !== undefined && (old.uid !== process.getuid?.() || old.gid !== process.getgid?.());
  writeFileAtomic(file, text, { mode: old ? old.mode & 0o7777 : NEW_FILE_MODE, ...(givenAway ? { owner: { uid: old.uid, gid: old.gid } } : {}) });
}

function statOrUndefined(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}
