// `cairn serve`'s process: one root's EngineHost, a watcher feeding its refresh queue, the
// store's socket, and an idle timer. It exits when idle for the timeout, when told to
// (SIGINT/SIGTERM, or a client of another version asking), and removes its socket on the way out.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import { EngineHost, claimStore } from '../core/engineApi';
import type { HostOpenOptions } from '../core/api';
import { readRegularSync } from '../core/clientApi';
import { RootWatcher, type SubscribeFn } from './watch';
import { AlreadyServedError, serveSocket } from './server';
import type { CommandRunner } from '../command/context';
import { fullCollection, pidFileFor, serverStarting, unshrinkYoungGenerationOfThreads } from './protocol';
import { recordServer } from './registry';

export const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60_000;
/**
 * Unused this long, the server lets go of what queries decoded (EngineHost's release): most of
 * an idle server's memory. An agent's queries come minutes apart at most while it works; the
 * first one after a release reads its pages again, as a process that just opened the index.
 */
export const DEFAULT_RELEASE_IDLE_MS = 5 * 60_000;
/**
 * File events start their refresh at once: the watcher already holds a burst's later events
 * until it goes quiet (watch.ts), and events arriving during a run queue up as one more run.
 * Waiting here as well would delay every save by that much before it is searchable.
 */
export const SERVER_DEBOUNCE_MS = 0;
/**
 * Told to stop (SIGTERM, SIGINT), the server finishes what it is answering; whatever is still
 * running after this long (a refresh, a client that keeps its connection) does not keep it alive.
 */
export const STOP_GRACE_MS = 800;

export interface DaemonOptions {
  engine: HostOpenOptions;
  idleTimeoutMs?: number;
  releaseIdleMs?: number;
  /** Also print the log on stderr (foreground runs). */
  echo?: (line: string) => void;
  subscribe?: SubscribeFn;
  /** Why no native watcher may start (RootWatcher's precheck; tests inject a failure). */
  watcherPrecheck?: () => string | undefined;
  /** Where running servers record themselves for `cairn serve --list` (registry.ts). */
  recordDir?: string;
  /** Runs the command lines clients send (the CLI's `runCli`). */
  runCommand: CommandRunner;
}

/** Serves until idle or stopped; resolves to the exit code (0 also when another server already holds the store). */
export async function runDaemon(o: DaemonOptions): Promise<number> {
  const { storeDir } = o.engine;
  if (serverStarting(storeDir)) {
    o.echo?.('another server is starting for this store');
    return 0;
  }
  // The log and pid file go only into this root's store (core/store/owner.ts), and never
  // through a symbolic link planted in their place.
  try {
    fs.mkdirSync(storeDir, { recursive: true, mode: 0o700 });
    claimStore(storeDir, o.engine.root, { create: true });
  } catch (e) {
    o.echo?.(`cannot serve: ${(e as Error).message}`);
    return 1;
  }
  const log = openLog(storeDir, o.echo);
  const pidFile = pidFileFor(storeDir);
  try {
    writeNoFollow(pidFile, `${process.pid}\n`);
  } catch (e) {
    log(`cannot serve: ${pidFile} cannot be written (${(e as NodeJS.ErrnoException).code === 'ELOOP' ? 'it is a symbolic link' : (e as Error).message})`);
    log.close();
    return 1;
  }
  // The pid file stands for "starting" only: once the socket listens, the socket is the lock.
  const dropPidFile = (): void => {
    try {
      if (readRegularSync(pidFile).toString('utf8').trim() === String(process.pid)) fs.rmSync(pidFile, { force: true });
    } catch {
      // already gone
    }
  };
  try {
    return await serve(o, log, dropPidFile);
  } finally {
    dropPidFile();
    log.close();
  }
}

async function serve(o: DaemonOptions, log: Log, listening: () => void): Promise<number> {
  const { root, storeDir } = o.engine;
  const startedAtMs = Date.now();
  const key = root;
  // Full collections after a release hand the freed memory back (given --expose-gc, SERVER_NODE_FLAGS).
  const gc = (globalThis as { gc?: () => void }).gc;
  unshrinkYoungGenerationOfThreads(v8.setFlagsFromString);
  const host = new EngineHost({}, { debounceMs: SERVER_DEBOUNCE_MS, minIntervalMs: 0, log }, { releaseIdleMs: o.releaseIdleMs ?? DEFAULT_RELEASE_IDLE_MS, ...(gc ? { collectGarbage: fullCollection(gc) } : {}) });
  await host.open(key, o.engine);
  const watcher = new RootWatcher({ host, key, root, storeDir, log, ...(o.subscribe ? { subscribe: o.subscribe } : {}), ...(o.watcherPrecheck ? { precheck: o.watcherPrecheck } : {}) });
  const idleTimeoutMs = o.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  let lastActivityMs = Date.now();
  let stop: (reason: string) => void = () => {};
  const stopped = new Promise<string>((resolve) => (stop = resolve));
  let socket;
  try {
    socket = await serveSocket(host, key, storeDir, {
      root,
      runCommand: o.runCommand,
      settle: () => watcher.settle(),
      startedAtMs,
      log,
      onActivity: () => (lastActivityMs = Date.now()),
      onExitRequest: () => stop('a client of another version asked it to exit'),
      warnings: () => {
        const warning = watcher.warning;
        return warning ? [{ code: 'watcher-unavailable', severity: 'warning', message: warning }] : [];
      },
    });
  } catch (e) {
    await host.closeAll();
    log(e instanceof AlreadyServedError ? `not starting: ${e.message}` : `cannot serve: ${(e as Error).message}`);
    return e instanceof AlreadyServedError ? 0 : 1;
  }
  listening();
  log(`serving ${root} (pid ${process.pid}, idle timeout ${Math.round(idleTimeoutMs / 1000)}s)`);
  const server = socket;
  const unrecord = o.recordDir ? recordServer(o.recordDir, { pid: process.pid, root, storeDir, socket: server.socketPath, startedAt: new Date().toISOString() }) : () => undefined;
  // Watch and verify while already listening: a query meanwhile joins the whole-root check.
  void watcher.start().then(() => log(watcher.live ? 'watching; the tree is verified' : 'not watching; polling, and each query checks the tree'));
  const ownSocket = socketIdentity(server.socketPath);
  const idle = setInterval(
    () => {
      if (server.active === 0 && Date.now() - lastActivityMs >= idleTimeoutMs) stop(`idle for ${Math.round(idleTimeoutMs / 1000)}s`);
      // Someone removed the socket (or another server replaced it): no client can reach this one.
      else if (ownSocket !== undefined && socketIdentity(server.socketPath) !== ownSocket) stop('its socket was removed');
    },
    Math.max(50, Math.min(5000, Math.floor(idleTimeoutMs / 4))),
  );
  const onSignal = (signal: NodeJS.Signals): void => {
    stop(`received ${signal}`);
    const late = setTimeout(() => {
      unrecord();
      log(`still stopping after ${STOP_GRACE_MS} ms; exiting now`);
      log.close();
      process.exit(0);
    }, STOP_GRACE_MS);
    late.unref();
  };
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  const reason = await stopped;
  log(`stopping: ${reason}`);
  unrecord();
  clearInterval(idle);
  process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
  await server.close();
  await watcher.close();
  await host.closeAll();
  return 0;
}

/** The socket file's inode, to notice it was removed or replaced (undefined on Windows pipes). */
function socketIdentity(socketPath: string): number | undefined {
  if (process.platform === 'win32') return undefined;
  try {
    return fs.lstatSync(socketPath).ino;
  } catch {
    return -1;
  }
}

type Log = ((line: string) => void) & { close(): void };

/** Refuses to open a symbolic link (0 where the platform has no such flag: Windows). */
const NO_FOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/** Writes `text` to `file`, created or truncated, owner-only; a symbolic link there fails with ELOOP. */
function writeNoFollow(file: string, text: string): void {
  const { O_WRONLY, O_CREAT, O_TRUNC } = fs.constants;
  const fd = fs.openSync(file, O_WRONLY | O_CREAT | O_TRUNC | NO_FOLLOW, 0o600);
  try {
    fs.writeSync(fd, text);
  } finally {
    fs.closeSync(fd);
  }
}

/** `<store>/serve.log`, owner-only, appended to (a server that finds it over 1 MB starts it afresh). */
function openLog(storeDir: string, echo?: (line: string) => void): Log {
  let fd: number | undefined;
  try {
    const file = path.join(storeDir, 'serve.log');
    // lstat and O_NOFOLLOW: a link named serve.log is not followed (the log is lost, not written elsewhere).
    const big = fs.existsSync(file) && fs.lstatSync(file).size > 1024 * 1024;
    const { O_WRONLY, O_CREAT, O_APPEND, O_TRUNC } = fs.constants;
    fd = fs.openSync(file, O_WRONLY | O_CREAT | (big ? O_TRUNC : O_APPEND) | NO_FOLLOW, 0o600);
  } catch {
    fd = undefined;
  }
  const log = ((line: string) => {
    const text = `${new Date().toISOString()} ${line}\n`;
    if (fd !== undefined) {
      try {
        fs.writeSync(fd, text);
      } catch {
        // a full disk costs the log, never the server
      }
    }
    echo?.(line);
  }) as Log;
  log.close = () => {
    if (fd !== undefined) fs.closeSync(fd);
    fd = undefined;
  };
  return log;
}
