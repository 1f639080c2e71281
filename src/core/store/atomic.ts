// Crash-safe file writes: write a temporary file beside the target, fsync it, rename it over
// the target, fsync the directory. A crash at any moment leaves the old file or the new one.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { nodeCrypto } from '../nodeCrypto';
import { isCairnTemporary } from './storeFiles';

export interface AtomicWriteOptions {
  /**
   * The file's permission bits (default 0o644 before the umask): the temporary is created with
   * them, never wider for a moment, then set exactly, as the umask may have narrowed them.
   */
  mode?: number;
  /** Owner to give the file, where this process may (only root may give a file away). */
  owner?: { uid: number; gid: number };
}

/** Writes `data` (text, bytes, or bytes in pieces written one after another) crash-safely. */
export function writeFileAtomic(file: string, data: string | Uint8Array | readonly Uint8Array[], options: AtomicWriteOptions = {}): void {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${nodeCrypto().randomBytes(4).toString('hex')}.tmp`);
  const fd = fs.openSync(tmp, 'wx', (options.mode ?? 0o644) & 0o777);
  try {
    try {
      if (options.owner) {
        try {
          fs.fchownSync(fd, options.owner.uid, options.owner.gid);
        } catch {
          // Not root: the rewrite is this user's, as an editor's would be.
        }
      }
      if (options.mode !== undefined) fs.fchmodSync(fd, options.mode);
      if (typeof data === 'string' || data instanceof Uint8Array) fs.writeFileSync(fd, data);
      else for (const piece of data) writeAll(fd, piece);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (e) {
    // A full disk must not keep the partial file too: it would hold the space it ran out of.
    fs.rmSync(tmp, { force: true });
    throw e;
  }
  fsyncDir(dir);
}

/**
 * `writeFileAtomic` without blocking the event loop (every step on libuv's thread pool), for
 * small files a long-lived host writes between requests, such as the usage counters.
 */
export async function writeFileAtomicAsync(file: string, data: string): Promise<void> {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${nodeCrypto().randomBytes(4).toString('hex')}.tmp`);
  try {
    const handle = await fs.promises.open(tmp, 'w', 0o644);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(tmp, file);
  } catch (e) {
    await fs.promises.rm(tmp, { force: true }).catch(() => undefined);
    throw e;
  }
  const dirHandle = await fs.promises.open(dir, 'r').catch(() => undefined);
  if (dirHandle) await dirHandle.sync().catch(() => undefined).finally(() => dirHandle.close().catch(() => undefined));
}

/**
 * Creates `file` holding `content` whole, or throws EEXIST when it exists: written to `temp`,
 * then hard-linked into place, so no reader sees it empty or half-written. On a file system
 * without hard links it is created exclusively, then written, and removed again if the write
 * fails: an empty or partial file would stand for a content nobody wrote.
 */
export function createExclusive(file: string, temp: string, content: string): void {
  try {
    // Inside the try: a write that fails half-way (a full disk) must not leave the temporary behind.
    fs.writeFileSync(temp, content, { mode: 0o644, flag: 'wx' });
    fs.linkSync(temp, file);
    return;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EOPNOTSUPP') throw e;
  } finally {
    fs.rmSync(temp, { force: true });
  }
  const fd = fs.openSync(file, 'wx', 0o644);
  try {
    fs.writeSync(fd, content);
  } catch (e) {
    fs.closeSync(fd);
    fs.rmSync(file, { force: true });
    throw e;
  }
  fs.closeSync(fd);
}

function writeAll(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length; ) done += fs.writeSync(fd, bytes, done, bytes.length - done);
}

/** Makes a rename durable. Some file systems refuse to open directories: that is not an error. */
export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // best effort
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Removes temporary files left by writers that crashed mid-write (older than `maxAgeMs`). */
export function removeStaleTemporaries(dir: string, maxAgeMs = 10 * 60_000): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  const now = Date.now();
  for (const name of names) {
    // Only Cairn's own temporaries: a `.draft.tmp` of the user's is not Cairn's to remove.
    if (!isCairnTemporary(name)) continue;
    const p = path.join(dir, name);
    try {
      if (now - fs.statSync(p).mtimeMs > maxAgeMs) fs.rmSync(p, { force: true });
    } catch {
      // raced with another cleaner
    }
  }
}
