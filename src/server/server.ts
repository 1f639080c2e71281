// serveSocket: one root's index served on the store's socket. Each request is a `cairn` command
// line, run by the same command code as in-process (src/cli/run.ts) against the host's warm
// engine, with the output captured and sent back. Any long-lived process holding an EngineHost
// can call it: `cairn serve` (daemon.ts) does, and an editor's engine thread can.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { Writable } from 'node:stream';
import type { EngineHost } from '../core/engineApi';
import type { Diagnostic } from '../core/api';
import { NotServedError, type CommandContext, type CommandRunner, type OptionValues, type OutputStream } from '../command/context';
import { ServedEngine } from './servedEngine';
import { encodeMessage, identityMismatch, LineDecoder, OUR_IDENTITY, parseClientMessage, SERVED_COMMANDS, socketPathFor, type Identity, type RunRequest, type ServerMessage } from './protocol';

export interface ServeSocketOptions {
  root: string;
  /** Waits for the watcher's in-flight events before a query reads (RootWatcher.settle). */
  settle?: () => Promise<void>;
  startedAtMs?: number;
  log?: (message: string) => void;
  /** Called when a request starts and when one ends (idle timers). */
  onActivity?: () => void;
  /** A client asked the server to exit (it is of another version); the socket is already gone. */
  onExitRequest?: () => void;
  /** The identity this server answers to (tests speak as another version). */
  identity?: Identity;
  /** Warnings about how the index is kept fresh (the watcher could not start), for `cairn status`. */
  warnings?: () => Diagnostic[];
  /**
   * Runs a `cairn` command line on the given streams against the given context (the CLI's
   * `runServedCommand`), passed in by whoever starts the server: the server knows the protocol,
   * the CLI knows the commands. The runner sets the context itself: a command reads it from the
   * CLI's own module, which may be another bundle's copy than the server's.
   */
  runCommand: CommandRunner;
}

export interface SocketServer {
  readonly socketPath: string;
  /** Requests running now. */
  readonly active: number;
  /** Stops listening and removes the socket; running requests finish. */
  close(): Promise<void>;
}

/** Another live server already listens on this store's socket. */
export class AlreadyServedError extends Error {
  override readonly name = 'AlreadyServedError';
}

/** Requests are command lines: a megabyte is far more than any. */
const MAX_REQUEST_BYTES = 1024 * 1024;

export async function serveSocket(host: EngineHost, key: string, storeDir: string, options: ServeSocketOptions): Promise<SocketServer> {
  const address = socketPathFor(storeDir);
  if (!address) throw new Error(`the store path is too long for a socket: ${storeDir}`);
  const socketPath: string = address;
  if (process.platform !== 'win32') {
    checkStoreDir(storeDir);
    if (path.dirname(socketPath) !== path.resolve(storeDir)) checkStoreDir(path.dirname(socketPath), true);
    await clearStaleSocket(socketPath);
  }
  const identity = options.identity ?? OUR_IDENTITY;
  const engine = new ServedEngine({ host, key, settle: options.settle ?? (async () => {}), startedAtMs: options.startedAtMs ?? Date.now(), ...(options.warnings ? { warnings: options.warnings } : {}) });
  let active = 0;
  let closed = false;
  /** Open connections, and how many of their requests are queued or running. */
  const sockets = new Map<net.Socket, number>();

  const server = net.createServer((conn) => {
    sockets.set(conn, 0);
    conn.on('close', () => sockets.delete(conn));
    conn.on('error', () => undefined);
    const decoder = new LineDecoder(MAX_REQUEST_BYTES);
    let greeted = false;
    // Requests on one connection are answered in order.
    let queue = Promise.resolve();
    const send = (m: ServerMessage): void => {
      if (!conn.destroyed) conn.write(encodeMessage(m));
    };
    conn.on('data', (chunk: Buffer) => {
      let messages: unknown[];
      try {
        messages = decoder.push(chunk);
      } catch (e) {
        send({ type: 'error', message: (e as Error).message });
        conn.end();
        return;
      }
      for (const raw of messages) {
        const m = parseClientMessage(raw);
        if (typeof m === 'string') {
          send({ type: 'error', message: m });
          conn.end();
          return;
        }
        if (m.type === 'exit') {
          send({ type: 'bye' });
          conn.end();
          void stop().then(() => options.onExitRequest?.());
          return;
        }
        if (m.type === 'hello') {
          const mismatch = identityMismatch(m, identity);
          if (mismatch) {
            options.log?.(`refused a client: ${mismatch}`);
            send({ type: 'refused', pid: process.pid, message: mismatch, ...identity });
            greeted = false;
          } else {
            send({ type: 'welcome', pid: process.pid, root: options.root, storeDir, ...identity });
            greeted = true;
          }
          continue;
        }
        if (!greeted) {
          send({ type: 'error', message: 'hello first: send your version' });
          continue;
        }
        const request = m;
        sockets.set(conn, (sockets.get(conn) ?? 0) + 1);
        queue = queue.then(async () => {
          active++;
          options.onActivity?.();
          try {
            send(await answer(request));
          } catch (e) {
            send({ type: 'error', message: (e as Error).message });
          } finally {
            active--;
            const left = (sockets.get(conn) ?? 1) - 1;
            sockets.set(conn, left);
            // Stopping: the last answer on this connection is out, so it may go.
            if (closed && left === 0) conn.end();
            options.onActivity?.();
          }
        });
      }
    });
  });

  async function answer(request: RunRequest): Promise<ServerMessage> {
    const command = request.argv[0] ?? '';
    if (!SERVED_COMMANDS.has(command)) return { type: 'fallback', reason: `${command} is not served` };
    if (request.storeDir !== storeDir || request.root !== options.root) return { type: 'fallback', reason: `this server holds ${options.root} (store ${storeDir})` };
    const stdout = new Capture(request.stdoutIsTTY, request.columns);
    const stderr = new Capture(false);
    const context: CommandContext = {
      cwd: request.cwd,
      queryEngine: (values: OptionValues, root: string) => {
        if (root !== options.root) throw new NotServedError(`this server holds ${options.root}, not ${root}`);
        const store = values.store;
        if (typeof store === 'string' && path.resolve(request.cwd, store) !== storeDir) throw new NotServedError(`this server holds the store ${storeDir}`);
        return engine;
      },
    };
    try {
      const exitCode = await options.runCommand(request.argv, { stdout, stderr }, context);
      return { type: 'result', stdout: stdout.text(), stderr: stderr.text(), exitCode };
    } catch (e) {
      if (e instanceof Error && e.name === 'NotServedError') return { type: 'fallback', reason: e.message };
      throw e;
    }
  }

  await listenOwnerOnly(server, socketPath);
  const ownInode = process.platform === 'win32' ? undefined : fs.lstatSync(socketPath).ino;
  options.log?.(`listening on ${socketPath}`);

  async function stop(): Promise<void> {
    if (closed) return;
    closed = true;
    // The socket goes first, so a client arriving now starts (or finds) another server.
    // Only our own: another server may have replaced a socket someone removed.
    if (ownInode !== undefined && inodeOf(socketPath) === ownInode) fs.rmSync(socketPath, { force: true });
    // server.close waits for every connection to close: a connection with nothing to answer
    // (a client that said hello and waits, or went quiet) would hold the stop for ever.
    const done = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const [conn, pending] of sockets) if (pending === 0) conn.destroy();
    await done;
  }

  return {
    socketPath,
    get active() {
      return active;
    },
    close: stop,
  };
}

function inodeOf(file: string): number | undefined {
  try {
    return fs.lstatSync(file).ino;
  } catch {
    return undefined;
  }
}

/** A command's stdout or stderr, kept as text for the reply. */
class Capture extends Writable implements Pick<OutputStream, 'isTTY' | 'columns'> {
  private readonly chunks: string[] = [];

  constructor(readonly isTTY: boolean, readonly columns?: number) {
    super({ decodeStrings: false });
  }

  override _write(chunk: string | Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.chunks.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
    callback();
  }

  text(): string {
    return this.chunks.join('');
  }
}

/** The store folder must be this user's and writable by nobody else: the socket lives there. */
/** The folder a socket goes in is this user's and nobody else may write it (`ownerOnly`: nor read or enter it). */
function checkStoreDir(storeDir: string, ownerOnly = false): void {
  fs.mkdirSync(storeDir, { recursive: true, mode: 0o700 });
  const st = fs.lstatSync(storeDir);
  const uid = process.getuid?.();
  if (!st.isDirectory()) throw new Error(`${storeDir} is not a folder`);
  if (uid !== undefined && st.uid !== uid) throw new Error(`${storeDir} belongs to uid ${st.uid}, not to this user (uid ${uid})`);
  if ((st.mode & (ownerOnly ? 0o077 : 0o022)) !== 0) throw new Error(`${storeDir} is open to other users (mode ${(st.mode & 0o777).toString(8)}); a server socket there would not be private`);
}

/** A socket file nobody listens on is removed; a live one means another server holds the store. */
async function clearStaleSocket(socketPath: string): Promise<void> {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(socketPath);
  } catch {
    return;
  }
  if (!st.isSocket()) throw new Error(`${socketPath} exists and is not a socket`);
  const live = await new Promise<boolean>((resolve) => {
    const probe = net.connect(socketPath);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
  if (live) throw new AlreadyServedError(`a server already listens on ${socketPath}`);
  fs.rmSync(socketPath, { force: true });
}

/**
 * Listens with a umask that leaves the socket to its owner (0600), and checks that it did. A
 * worker thread (the editor's engine thread) cannot set the umask: there the process's own must
 * already keep others from writing, so the socket is never connectable by them before the chmod.
 */
async function listenOwnerOnly(server: net.Server, socketPath: string): Promise<void> {
  if (process.platform !== 'win32' && !isMainThread && (process.umask() & 0o022) !== 0o022) {
    throw new Error(`the process umask (${process.umask().toString(8)}) would let other users connect to ${socketPath} before it is made private`);
  }
  const previous = process.platform === 'win32' || !isMainThread ? undefined : process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      const onError = (e: NodeJS.ErrnoException): void => reject(e.code === 'EADDRINUSE' ? new AlreadyServedError(`a server already listens on ${socketPath}`) : e);
      server.once('error', onError);
      server.listen(socketPath, () => {
        server.off('error', onError);
        resolve();
      });
    });
  } finally {
    if (previous !== undefined) process.umask(previous);
  }
  if (process.platform !== 'win32') fs.chmodSync(socketPath, 0o600);
}
