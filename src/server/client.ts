// The `cairn` launcher's client path (it runs before the engine bundle is loaded): for search,
// symbol, refs, pack and status it finds the root's store, asks the `cairn serve` process listening
// on the store's socket to run the command, and prints its answer. Without a server it says so,
// and the launcher answers in-process and starts one. Everything here is node:fs/net/path and
// the tiny store-directory resolution: no engine code.
import type * as ChildProcess from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { resolveStoreDir } from '../command/storeLocation';
import {
  encodeMessage,
  identityMismatch,
  LineDecoder,
  OUR_IDENTITY,
  parseServerMessage,
  SERVED_COMMANDS,
  SERVER_NODE_FLAGS,
  serverEnv,
  serverStarting,
  socketPathFor,
  type RunRequest,
  type ServerMessage,
} from './protocol';

/** What the command line names: the command, and the root and store it reads. */
export interface Target {
  command: string;
  root: string;
  storeDir: string;
}

/** Options whose value is the next argument, for the commands a server answers. */
const VALUE_OPTIONS = new Set(['--root', '--store', '--limit', '--offset', '--lang', '--kind', '--path', '--scope', '--provider', '--group', '--budget', '--not']);

/**
 * The target of a served command, or undefined when it must run in-process: another command,
 * `--no-server`, `CAIRN_SERVER=0`, or help. The root is what resolveRoot would make of the same
 * argv (`--root`, or status's positional ROOT, relative to `cwd`); a server checks it again.
 */
export function scanCommandLine(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Target | undefined {
  const [command, ...rest] = argv;
  if (command === undefined || !SERVED_COMMANDS.has(command) || env.CAIRN_SERVER === '0') return undefined;
  let root: string | undefined;
  let store: string | undefined;
  let positional: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    if (arg === '--') {
      positional ??= rest[i + 1];
      break;
    }
    if (arg === '--no-server' || arg === '--help' || arg === '-h') return undefined;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const value = eq > 0 ? arg.slice(eq + 1) : VALUE_OPTIONS.has(name) ? rest[++i] : undefined;
    if (name === '--root') root = value;
    else if (name === '--store') store = value;
    else if (!arg.startsWith('-')) positional ??= arg;
  }
  const given = command === 'status' ? positional : root;
  const resolvedRoot = path.resolve(cwd, given ?? '.');
  if (store === '') return undefined;
  // As resolveStoreDir reads them in-process: --store, else $CAIRN_STORE, else the per-root default.
  const explicit = store ?? (env.CAIRN_STORE || undefined);
  return { command, root: resolvedRoot, storeDir: resolveStoreDir(resolvedRoot, explicit === undefined ? undefined : path.resolve(cwd, explicit)) };
}

/** The parts of a file's status the ownership check reads (injectable for tests). */
export type StatFn = (p: string) => Pick<fs.Stats, 'uid' | 'mode' | 'isSocket' | 'isDirectory' | 'ino'>;

/**
 * Why the socket at `socket` must not be used, or undefined when it may: it must be a socket
 * owned by this user in a folder owned by this user (anyone else could answer in our name).
 * Windows pipes have no owner to check here; the pipe's name is private to the store path.
 */
export function socketRefusal(socket: string, uid: number | undefined, stat: StatFn = fs.lstatSync): string | undefined {
  if (uid === undefined) return undefined;
  const st = stat(socket);
  if (!st.isSocket()) return `${socket} is not a socket`;
  if (st.uid !== uid) return `${socket} belongs to uid ${st.uid}, not to you (uid ${uid})`;
  const dir = stat(path.dirname(socket));
  if (dir.uid !== uid) return `${path.dirname(socket)} belongs to uid ${dir.uid}, not to you (uid ${uid})`;
  return undefined;
}

export type ClientOutcome =
  /** The server ran the command; its output is printed. */
  | { kind: 'answered'; exitCode: number; pid: number }
  /** Run the command in this process; `start`: no server is running for this target, start one after. */
  | { kind: 'in-process'; reason: string; start?: Target };

export interface ClientOptions {
  argv: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  uid?: number;
  stat?: StatFn;
  /** How long the server may take to say hello before this client answers without it. */
  helloTimeoutMs?: number;
  /** How long a command may take on a server that said hello before this client gives up on it. */
  replyTimeoutMs?: number;
}

/**
 * A live server says hello within milliseconds; one that does not (stopped, swapped out, its
 * event loop stuck) must not hold up the command, which answers in its own process instead.
 */
export const HELLO_TIMEOUT_MS = 500;
/** A server that said hello is working on the command: a long pack or first query may take this long. */
export const REPLY_TIMEOUT_MS = 120_000;

/** What the client prints when the server did not say hello in time. */
export function unresponsiveNote(root: string, ms: number): string {
  return `cairn: the server for ${root} did not answer in ${ms} ms; answered without it\n`;
}

/** Asks the target's server to run the command line; never throws. */
export async function askServer(o: ClientOptions): Promise<ClientOutcome> {
  let target: Target | undefined;
  try {
    target = scanCommandLine(o.argv, o.cwd, o.env);
  } catch (e) {
    return { kind: 'in-process', reason: `cannot resolve the store: ${(e as Error).message}` };
  }
  if (!target) return { kind: 'in-process', reason: 'not a served command, or the server is turned off' };
  const socket = socketPathFor(target.storeDir);
  if (!socket) return { kind: 'in-process', reason: 'the store path is too long for a socket' };
  if (process.platform !== 'win32') {
    try {
      const refusal = socketRefusal(socket, o.uid, o.stat);
      if (refusal) {
        o.stderr.write(`cairn: not using the server socket: ${refusal}\n`);
        return { kind: 'in-process', reason: refusal };
      }
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      return { kind: 'in-process', reason: code === 'ENOENT' ? 'no server is running' : `cannot check the socket: ${code ?? String(e)}`, ...(code === 'ENOENT' ? { start: target } : {}) };
    }
  }
  const request: RunRequest = {
    type: 'run',
    argv: [...o.argv],
    cwd: o.cwd,
    root: target.root,
    storeDir: target.storeDir,
    stdoutIsTTY: o.stdout.isTTY === true,
    ...(o.stdout.isTTY && o.stdout.columns ? { columns: o.stdout.columns } : {}),
  };
  const helloMs = o.helloTimeoutMs ?? HELLO_TIMEOUT_MS;
  const reply = await exchange(socket, request, helloMs, o.replyTimeoutMs ?? REPLY_TIMEOUT_MS);
  switch (reply.kind) {
    case 'unresponsive':
      // The server is alive (something holds the socket) but not answering: neither wait for it
      // nor start another next to it.
      writeQuietly(o.stderr, unresponsiveNote(target.root, helloMs));
      return { kind: 'in-process', reason: `the server did not say hello within ${helloMs} ms` };
    case 'stale':
      // Nothing listens (a server crashed, or was killed): the socket file is litter.
      removeStale(socket, o.stat);
      return { kind: 'in-process', reason: 'the server socket was stale', start: target };
    case 'refused':
      return { kind: 'in-process', reason: reply.message, start: target };
    case 'failed':
      return { kind: 'in-process', reason: reply.message };
    case 'result':
      writeQuietly(o.stdout, reply.result.stdout);
      writeQuietly(o.stderr, reply.result.stderr);
      return { kind: 'answered', exitCode: reply.result.exitCode, pid: reply.pid };
  }
}

type Exchange =
  | { kind: 'stale' }
  | { kind: 'unresponsive' }
  | { kind: 'refused'; message: string }
  | { kind: 'failed'; message: string }
  | { kind: 'result'; pid: number; result: Extract<ServerMessage, { type: 'result' }> };

/**
 * One connection: hello, and once the server welcomes us (within `helloMs`), the request, whose
 * answer may take `replyMs`. The request waits for the welcome so that a server that wakes up
 * late does not run a command nobody waits for any more.
 */
function exchange(socket: string, request: RunRequest, helloMs: number, replyMs: number): Promise<Exchange> {
  return new Promise((resolve) => {
    const conn = net.connect(socket);
    const decoder = new LineDecoder(1024 * 1024 * 1024);
    let pid = 0;
    let welcomed = false;
    let settled = false;
    let timer = setTimeout(() => finish({ kind: 'unresponsive' }), helloMs);
    function finish(outcome: Exchange, keepOpen = false): void {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!keepOpen) conn.destroy();
      resolve(outcome);
    }
    conn.on('error', (e: NodeJS.ErrnoException) => {
      if (!welcomed && (e.code === 'ECONNREFUSED' || e.code === 'ENOENT')) finish({ kind: 'stale' });
      else finish({ kind: 'failed', message: `the server connection failed: ${e.code ?? e.message}` });
    });
    conn.on('close', () => finish({ kind: 'failed', message: 'the server closed the connection before answering' }));
    conn.on('connect', () => conn.write(encodeMessage({ type: 'hello', ...OUR_IDENTITY })));
    conn.on('data', (chunk: Buffer) => {
      let messages: unknown[];
      try {
        messages = decoder.push(chunk);
      } catch (e) {
        finish({ kind: 'failed', message: `the server sent garbage: ${(e as Error).message}` });
        return;
      }
      for (const raw of messages) {
        const m = parseServerMessage(raw);
        if (typeof m === 'string') return finish({ kind: 'failed', message: `the server sent a bad message: ${m}` });
        if (m.type === 'welcome' || m.type === 'refused') {
          // Refused by the server, or a server that says it is of another version: tell it to go.
          const mismatch = m.type === 'refused' ? m.message : identityMismatch(m);
          if (mismatch) {
            askToExit(conn);
            return finish({ kind: 'refused', message: mismatch }, true);
          }
          welcomed = true;
          pid = m.pid;
          clearTimeout(timer);
          timer = setTimeout(() => finish({ kind: 'failed', message: `the server did not answer within ${replyMs} ms` }), replyMs);
          conn.write(encodeMessage(request));
        } else if (m.type === 'result') {
          if (!welcomed) return finish({ kind: 'failed', message: 'the server answered before it said hello' });
          return finish({ kind: 'result', pid, result: m });
        } else if (m.type === 'fallback') {
          return finish({ kind: 'failed', message: `the server does not hold this index: ${m.reason}` });
        } else if (m.type === 'error') {
          return finish({ kind: 'failed', message: `the server refused the request: ${m.message}` });
        }
      }
    });
  });
}

/** Asks a server of another version to exit (its socket goes first), and lets go of it soon after. */
function askToExit(conn: net.Socket): void {
  conn.write(encodeMessage({ type: 'exit' }));
  conn.removeAllListeners('data');
  conn.on('data', () => undefined);
  const drop = setTimeout(() => conn.destroy(), 1000);
  drop.unref();
  conn.once('close', () => clearTimeout(drop));
}

/** Removes a socket nobody listens on, unless it was replaced by a new one meanwhile. */
function removeStale(socket: string, stat: StatFn = fs.lstatSync): void {
  try {
    const before = stat(socket);
    if (before.isSocket()) fs.unlinkSync(socket);
  } catch {
    // already gone, or not ours to remove: the next server start deals with it
  }
}

function writeQuietly(stream: NodeJS.WriteStream, text: string): void {
  if (!text) return;
  stream.on('error', () => undefined);
  stream.write(text);
}

/**
 * Starts `cairn serve` for the target in the background, detached from this process, once the
 * root has an index (a server is not started for a root that was never indexed: the first
 * query builds the index in its own process, as before) and unless one is starting already.
 */
export function startServer(target: Target, cliScript: string, env: NodeJS.ProcessEnv): boolean {
  if (!fs.existsSync(path.join(target.storeDir, 'manifest.json')) || serverStarting(target.storeDir)) return false;
  const args = [...SERVER_NODE_FLAGS, cliScript, 'serve', '--root', target.root, '--store', target.storeDir];
  const idle = env.CAIRN_SERVER_IDLE_TIMEOUT;
  if (idle) args.push('--idle-timeout', idle);
  const release = env.CAIRN_SERVER_RELEASE_IDLE;
  if (release) args.push('--release-idle', release);
  try {
    // Loaded here: a served query never starts a process, and loading node:child_process is not free.
    const { spawn } = require('node:child_process') as typeof ChildProcess;
    spawn(process.execPath, args, { detached: true, stdio: 'ignore', cwd: target.root, env: serverEnv(env), windowsHide: true }).unref();
    return true;
  } catch {
    return false;
  }
}
