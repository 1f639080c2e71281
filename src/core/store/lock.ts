// The store's writer lock. Several processes (the extension's worker, a CLI run, the MCP
// server) may share one store; writers are serialised by an exclusive lock file, readers
// never lock (they read the atomically replaced manifest).
//
// A crashed holder cannot leave the lock stuck: the holder refreshes the lock file's mtime
// every few seconds, and a waiter breaks a lock whose holder is a dead process on this host
// or whose heartbeat stopped for `staleMs`.
import * as fs from 'node:fs';
import { hostname } from 'node:os';
import * as path from 'node:path';
import { createExclusive } from './atomic';
import { threadId } from 'node:worker_threads';
import { readRegularSync } from '../fsRead';

export interface LockOptions {
  /** Give up waiting after this long. */
  timeoutMs?: number;
  /** A lock whose heartbeat is older than this is considered abandoned. */
  staleMs?: number;
  /** Heartbeat period. */
  heartbeatMs?: number;
  signal?: AbortSignal;
  /**
   * false: never wait — a lock held by anyone (another process, or another refresh in this
   * process) throws LockHeldError at once. A reader that would only refresh first answers from
   * the index as it is instead of queueing behind a writer.
   */
  wait?: boolean;
  /** Called when the lock is held by someone else: after the first second of waiting, then every 15 s. */
  onWait?: (holder: string) => void;
}

interface LockInfo {
  pid: number;
  /** The holder's thread within its process (worker_threads' threadId; 0 is the main thread). */
  thread?: number;
  host: string;
  token: string;
  acquiredAt: string;
  /** What the holder is (`cairn index`, `cairn mcp`, an editor's extension host), for waiters to say. */
  command?: string;
}

/** "pid 123 (cairn index) since 12:00:01", or "another writer" for a lock file that cannot be read. */
export function describeHolder(info: LockInfo | undefined): string {
  if (!info) return 'another writer';
  const what = info.command ? ` (${info.command})` : '';
  const where = info.host === hostname() ? '' : ` on ${info.host}`;
  const thread = info.pid === process.pid ? (info.thread ? ` thread ${info.thread} of this process` : ' this process') : '';
  return `pid ${info.pid}${thread}${what}${where} since ${info.acquiredAt}`;
}

/** A short description of this process for the lock file: `cairn index`, `cairn mcp`, or the script's name. */
function thisCommand(): string {
  const script = process.argv[1] ? path.basename(process.argv[1]) : '';
  if (/^cli(-\w+)?\.js$/.test(script)) return ['cairn', ...process.argv.slice(2, 3)].join(' ');
  return script || path.basename(process.execPath);
}

export class LockTimeoutError extends Error {
  constructor(
    readonly lockPath: string,
    readonly holder: LockInfo | undefined,
  ) {
    super(`timed out waiting for the index lock ${lockPath}, held by ${describeHolder(holder)}`);
    this.name = 'LockTimeoutError';
  }
}

/** The lock is held and the caller asked not to wait (`wait: false`). */
export class LockHeldError extends Error {
  override readonly name = 'LockHeldError';
  constructor(
    readonly lockPath: string,
    readonly holder: string,
  ) {
    super(`another refresh is running (${holder})`);
  }
}

/** Same-process writers (e.g. two engines on one store) queue here before touching the file lock. */
const processQueues = new Map<string, Promise<void>>();

export interface HeldLock {
  release(): void;
}

function readInfo(file: string): LockInfo | undefined {
  try {
    // Regular files only, opened non-blocking: a FIFO named write.lock must not hang a writer.
    return JSON.parse(readRegularSync(file).toString('utf8')) as LockInfo;
  } catch {
    return undefined;
  }
}

/** This machine has a process with this pid (one of another user's counts: EPERM). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isStale(file: string, staleMs: number): boolean {
  let mtimeMs: number;
  try {
    const stats = fs.lstatSync(file);
    // Cairn's lock is a regular file; anything else under its name (a FIFO, a folder, a link)
    // holds no writer, and waiting for it to age would only delay every refresh.
    if (!stats.isFile()) return true;
    mtimeMs = stats.mtimeMs;
  } catch {
    return false; // gone: not stale, just retry
  }
  const info = readInfo(file);
  if (info && info.host === hostname() && info.pid !== process.pid && !processAlive(info.pid)) return true;
  // An unparseable lock file (a crash mid-write on a file system without hard links, or
  // damage) is broken once its mtime is older than staleMs.
  return Date.now() - mtimeMs > staleMs;
}

/** Removes a stale lock without racing another breaker: rename first (only one wins), then delete. */
function breakLock(file: string): void {
  const grave = `${file}.stale-${randomHex(8)}`;
  try {
    fs.renameSync(file, grave);
    fs.rmSync(grave, { force: true });
  } catch {
    // someone else broke or released it
  }
}

/**
 * Breaks the lock of `dir` if a thread of this process that has ended holds it: a worker thread
 * that died mid-write (out of memory) leaves a lock whose process is alive, which waiters would
 * otherwise only break once its heartbeat went stale. The caller knows the thread is gone.
 */
export function breakLockOfDeadThread(dir: string, thread: number): boolean {
  const file = lockFileOf(dir);
  const info = readInfo(file);
  if (!info || info.pid !== process.pid || info.host !== hostname() || info.thread !== thread) return false;
  breakLock(file);
  return true;
}

const lockFileOf = (dir: string) => path.join(dir, 'write.lock');

/** A store location that cannot hold a store: a file, a FIFO, a folder that cannot be made. */
export class StoreLocationError extends Error {
  override readonly name = 'StoreLocationError';
  readonly code = 'store-location';
}

/**
 * `mkdir -p` one folder at a time: Node's recursive mkdir retries forever where the kernel
 * answers ENOENT for a folder whose parent exists (`/proc/x`).
 */
function makeDirectories(dir: string): void {
  const missing: string[] = [];
  for (let d = dir; !fs.existsSync(d); d = path.dirname(d)) {
    missing.push(d);
    if (path.dirname(d) === d) break;
  }
  for (const d of missing.reverse()) {
    try {
      fs.mkdirSync(d);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}

/**
 * Makes the store folder, or says at once why it cannot be one. Without this, a path naming
 * a file made `mkdir` fail with EEXIST, which the lock loop read as another writer's lock
 * and waited two minutes for.
 */
export function ensureStoreDirectory(dir: string): void {
  try {
    makeDirectories(path.resolve(dir));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST') throw new StoreLocationError(`the store ${dir} cannot be created (${code ?? String(e)})`);
  }
  let stats: fs.Stats;
  try {
    stats = fs.statSync(dir);
  } catch (e) {
    throw new StoreLocationError(`the store ${dir} cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  if (!stats.isDirectory()) throw new StoreLocationError(`the store ${dir} exists and is not a directory`);
  try {
    fs.accessSync(dir, fs.constants.W_OK);
  } catch {
    throw new StoreLocationError(`the store ${dir} is not writable`);
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Acquires the lock `dir/write.lock`, waiting with backoff. Always pair with release(). */
export async function acquireLock(dir: string, options: LockOptions = {}): Promise<HeldLock> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const staleMs = options.staleMs ?? 30_000;
  const heartbeatMs = options.heartbeatMs ?? Math.max(250, Math.floor(staleMs / 4));
  const file = lockFileOf(dir);

  // In-process queue first, so threads of one process don't fight over the file.
  const queued = processQueues.has(file);
  if (options.wait === false && queued) throw new LockHeldError(file, 'another refresh in this process');
  const previous = processQueues.get(file) ?? Promise.resolve();
  let releaseQueue!: () => void;
  const mine = new Promise<void>((r) => (releaseQueue = r));
  const chained = previous.then(() => mine);
  processQueues.set(file, chained);
  const cleanupQueue = () => {
    releaseQueue();
    if (processQueues.get(file) === chained) processQueues.delete(file);
  };
  const onWait = options.onWait;
  const notice = queued && onWait ? setTimeout(() => onWait('another refresh in this process'), 1000) : undefined;
  await previous;
  clearTimeout(notice);

  try {
    ensureStoreDirectory(dir);
  } catch (e) {
    cleanupQueue();
    throw e;
  }
  const started = Date.now();
  const deadline = started + timeoutMs;
  let nextNotice = started + 1000;
  let delay = 10;
  const token = randomHex(16);
  for (;;) {
    if (options.signal?.aborted) {
      cleanupQueue();
      throw options.signal.reason ?? new Error('aborted');
    }
    try {
      fs.mkdirSync(dir, { recursive: true });
      // The lock appears with its content or not at all: the owner is written to a temporary
      // file that is then hard-linked into place (link fails if the lock exists). Created
      // empty and filled after, a writer killed in between left a lock nobody could tell was
      // dead, and every writer waited for it to go stale (30 s).
      const info: LockInfo = { pid: process.pid, thread: threadId, host: hostname(), token, acquiredAt: new Date().toISOString(), command: thisCommand() };
      // In one step, so a waiter never reads an empty lock; the temporary's name is the lock's own.
      createExclusive(file, path.join(path.dirname(file), `.write.lock.${process.pid}.${token}.tmp`), JSON.stringify(info));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
        cleanupQueue();
        throw e;
      }
    }
    if (isStale(file, staleMs)) {
      breakLock(file);
      continue;
    }
    if (options.wait === false) {
      cleanupQueue();
      throw new LockHeldError(file, describeHolder(readInfo(file)));
    }
    if (options.onWait && Date.now() >= nextNotice) {
      options.onWait(describeHolder(readInfo(file)));
      nextNotice = Date.now() + 15_000;
    }
    if (Date.now() > deadline) {
      cleanupQueue();
      throw new LockTimeoutError(file, readInfo(file));
    }
    await sleep(delay + Math.random() * delay);
    delay = Math.min(delay * 2, 400);
  }

  const heartbeat = setInterval(() => {
    try {
      const now = new Date();
      fs.utimesSync(file, now, now);
    } catch {
      // lock was broken by someone who judged us dead; release() will notice
    }
  }, heartbeatMs);
  heartbeat.unref();

  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      clearInterval(heartbeat);
      // Only remove the lock if it is still ours.
      if (readInfo(file)?.token === token) fs.rmSync(file, { force: true });
      cleanupQueue();
    },
  };
}

/** Runs `fn` while holding the store's writer lock. */
export async function withLock<T>(dir: string, fn: () => Promise<T>, options?: LockOptions): Promise<T> {
  const lock = await acquireLock(dir, options);
  try {
    return await fn();
  } finally {
    lock.release();
  }
}

/**
 * `digits` hex digits, unique enough to tell lock holders and breakers apart (not a secret):
 * Math.random rather than node:crypto, which a one-shot query on an up-to-date index would
 * otherwise load only for this.
 */
function randomHex(digits: number): string {
  let out = '';
  while (out.length < digits) out += Math.floor(Math.random() * 0x100000000).toString(16).padStart(8, '0');
  return out.slice(0, digits);
}
