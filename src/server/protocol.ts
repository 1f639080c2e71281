// What a `cairn` client and a `cairn serve` process say to each other over the store's socket:
// newline-delimited JSON, one message a line, typed once here. Both sides import this module,
// which needs only node:fs and node:path, so the client path stays tiny.
//
// A connection starts with the client's `hello` (its package version and protocol number); the
// server answers `welcome` when both match and `refused` otherwise. Those three messages and
// `exit` keep their shape in every version, so a client can always tell an old server to go.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { version } from '../../package.json';
import { nodeCrypto } from '../core/nodeCrypto';

/** Raised when a message's shape or meaning changes; a server answers only its own number. */
export const PROTOCOL = 1;

export interface Identity {
  version: string;
  protocol: number;
  /** The CLI bundle the process runs (size and mtime of dist/cliMain.js): a rebuild is another version too. */
  build?: string;
}

/** Beside the bundles, dist/cliMain.js identifies the build; run from tsc's output there is none. */
function buildId(): string | undefined {
  try {
    const st = fs.statSync(path.join(__dirname, 'cliMain.js'));
    return `${st.size}-${Math.trunc(st.mtimeMs)}`;
  } catch {
    return undefined;
  }
}

const build = buildId();
export const OUR_IDENTITY: Identity = { version, protocol: PROTOCOL, ...(build ? { build } : {}) };

/**
 * Node flags a background server starts with.
 * - A 1 MB young generation: the whole-tree check at start grows V8's semi-spaces to their 16 MB
 *   maximum, and V8 keeps them committed for the life of the process, a large part of an idle
 *   server's memory. The cost is a slightly slower full re-index, which a watched server
 *   rarely runs. Flags of the young generation must be given at start
 *   (v8.setFlagsFromString is too late for them).
 * - `gc()`, for one full collection after an idle server lets go of its caches: an idle process
 *   allocates nothing, so V8 would not collect them for a long time.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=1', '--expose-gc'];

/** V8's own semi-space for a 64-bit heap (MB): what a thread allocating fast is given by default. */
const THREAD_SEMI_SPACE_MB = 16;

/**
 * Gives the threads a server starts from now on (a big refresh's index thread and its parsers)
 * V8's usual young generation. A V8 flag is the process's, and a worker's resource limits do not
 * override it: under SERVER_NODE_FLAGS' 1 MB those threads spend their time in scavenges. This
 * thread's heap was sized when it started and keeps the small one.
 */
export function unshrinkYoungGenerationOfThreads(setFlags: (flags: string) => void): void {
  setFlags(`--max-semi-space-size=${THREAD_SEMI_SPACE_MB}`);
}

/**
 * `gc` (SERVER_NODE_FLAGS) run so that what it frees leaves the process now. One full collection
 * marks the released caches dead, but V8 learns that a page holds nothing live only when it
 * sweeps that page, after the collection, and it unmaps empty pages at the next one. An idle
 * server runs no next one until its allocations call for it, so without the second call most of
 * its heap (pages that held the caches) stays resident.
 */
export function fullCollection(gc: () => void): () => void {
  return () => {
    gc();
    gc();
  };
}

/**
 * glibc's malloc for a background server: blocks of 8 KB or more mapped on their own, so that
 * freeing the caches returns them to the system. Left to itself, glibc raises that threshold to
 * the size of each large block freed (up to 32 MB) and keeps such blocks in its heap, which only
 * shrinks from the top. A lower threshold returns little more and would map every page read on
 * its own (docs/index-design.md, Measurements).
 */
const SERVER_MALLOC_TUNABLES = 'glibc.malloc.mmap_threshold=8192:glibc.malloc.trim_threshold=1048576';

/** The environment a background server starts with: `env` and SERVER_MALLOC_TUNABLES (settings already in `env` win). */
export function serverEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const theirs = env.GLIBC_TUNABLES;
  return { ...env, GLIBC_TUNABLES: theirs ? `${SERVER_MALLOC_TUNABLES}:${theirs}` : SERVER_MALLOC_TUNABLES };
}

/** The commands a server answers; the rest always run in the client's process. */
export const SERVED_COMMANDS: ReadonlySet<string> = new Set(['search', 'symbol', 'refs', 'pack', 'status']);

export interface RunRequest {
  type: 'run';
  /** The command line after `cairn` (command name first), as the user typed it. */
  argv: string[];
  /** The client's working directory: relative paths in argv mean this. */
  cwd: string;
  /** The root and store the client resolved; a server holding others answers `fallback`. */
  root: string;
  storeDir: string;
  /** Whether the client's stdout is a terminal, and its width (commands format for it). */
  stdoutIsTTY: boolean;
  columns?: number;
}

export type ClientMessage = ({ type: 'hello' } & Identity) | RunRequest | { type: 'exit' };

export type ServerMessage =
  | ({ type: 'welcome'; pid: number; root: string; storeDir: string } & Identity)
  | ({ type: 'refused'; pid: number; message: string } & Identity)
  /** The command's output, byte for byte what it printed, and its exit code. */
  | { type: 'result'; stdout: string; stderr: string; exitCode: number }
  /** The server cannot answer this command (another root or store): the client runs it itself. */
  | { type: 'fallback'; reason: string }
  /** A message the server could not take; the connection closes after it. */
  | { type: 'error'; message: string }
  /** `exit` accepted: the socket is gone, the server is stopping. */
  | { type: 'bye' };

/** One message as a line. */
export function encodeMessage(message: ClientMessage | ServerMessage): string {
  return `${JSON.stringify(message)}\n`;
}

/** The reason a peer of identity `theirs` may not talk to us, or undefined when it may. */
export function identityMismatch(theirs: Identity, ours: Identity = OUR_IDENTITY): string | undefined {
  if (theirs.protocol === ours.protocol && theirs.version === ours.version) {
    if ((theirs.build ?? '') === (ours.build ?? '')) return undefined;
    return `cairn ${theirs.version} (build ${theirs.build ?? 'unknown'}) cannot talk to cairn ${ours.version} (build ${ours.build ?? 'unknown'}): one of them was rebuilt; the client answers in its own process`;
  }
  return `cairn ${theirs.version} (protocol ${theirs.protocol}) cannot talk to cairn ${ours.version} (protocol ${ours.protocol}); the client answers in its own process`;
}

/**
 * Splits a byte stream into JSON lines. A line longer than `maxLineBytes`, or one that is not
 * JSON, is an error: the peer is not speaking this protocol.
 */
export class LineDecoder {
  private parts: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly maxLineBytes: number) {}

  /** The complete messages `chunk` finishes, in order. Throws on a bad line. */
  push(chunk: Buffer): unknown[] {
    const out: unknown[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl >= 0; nl = chunk.indexOf(10, start)) {
      this.take(chunk.subarray(start, nl));
      const line = Buffer.concat(this.parts).toString('utf8');
      this.parts = [];
      this.pendingBytes = 0;
      start = nl + 1;
      if (line.trim() === '') continue;
      try {
        out.push(JSON.parse(line));
      } catch {
        throw new Error('a line is not JSON');
      }
    }
    if (start < chunk.length) this.take(chunk.subarray(start));
    return out;
  }

  private take(bytes: Buffer): void {
    this.pendingBytes += bytes.length;
    if (this.pendingBytes > this.maxLineBytes) throw new Error(`a line is longer than ${this.maxLineBytes} bytes`);
    if (bytes.length) this.parts.push(Buffer.from(bytes));
  }
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A client's message, checked field by field; a string says what is wrong. */
export function parseClientMessage(value: unknown): ClientMessage | string {
  if (!isObject(value)) return 'a message must be a JSON object';
  switch (value.type) {
    case 'hello':
      if (!isString(value.version) || typeof value.protocol !== 'number') return 'hello needs version and protocol';
      return { type: 'hello', version: value.version, protocol: value.protocol, ...(isString(value.build) ? { build: value.build } : {}) };
    case 'exit':
      return { type: 'exit' };
    case 'run': {
      const { argv, cwd, root, storeDir, stdoutIsTTY, columns } = value;
      if (!Array.isArray(argv) || !argv.every(isString) || argv.length === 0) return 'run needs argv (strings, the command first)';
      if (!isString(cwd) || !path.isAbsolute(cwd) || !isString(root) || !isString(storeDir)) return 'run needs an absolute cwd, a root and a storeDir';
      if (typeof stdoutIsTTY !== 'boolean' || (columns !== undefined && typeof columns !== 'number')) return 'run needs stdoutIsTTY (and columns a number)';
      return { type: 'run', argv, cwd, root, storeDir, stdoutIsTTY, ...(columns !== undefined ? { columns } : {}) };
    }
    default:
      return `unknown message type ${JSON.stringify(value.type)}`;
  }
}

/** A server's message, checked as far as the client relies on it. */
export function parseServerMessage(value: unknown): ServerMessage | string {
  if (!isObject(value)) return 'a message must be a JSON object';
  switch (value.type) {
    case 'welcome':
    case 'refused':
      if (!isString(value.version) || typeof value.protocol !== 'number' || typeof value.pid !== 'number') return `${value.type} needs version, protocol and pid`;
      return value as ServerMessage;
    case 'result':
      return isString(value.stdout) && isString(value.stderr) && typeof value.exitCode === 'number' ? (value as ServerMessage) : 'result needs stdout, stderr and exitCode';
    case 'fallback':
    case 'error':
      return isString(value.reason ?? value.message) ? (value as ServerMessage) : `${value.type} needs a reason`;
    case 'bye':
      return { type: 'bye' };
    default:
      return `unknown message type ${JSON.stringify(value.type)}`;
  }
}

/** Longest path a Unix socket address takes (sun_path: 108 bytes on Linux, 104 on macOS, with the NUL). */
const MAX_SOCKET_PATH = process.platform === 'linux' ? 107 : 103;

/**
 * The server's address for a store: `<store>/serve.sock`, or on Windows a named pipe named after
 * the store path. A store too deep for a socket address (an editor's workspace storage) gets one
 * named after it in `/tmp/cairn-<uid>/`, a folder only its user may use (the server checks).
 * Undefined when even that is too long (no server then).
 */
export function socketPathFor(storeDir: string): string | undefined {
  if (process.platform === 'win32') {
    const id = nodeCrypto().createHash('sha256').update(path.resolve(storeDir).toLowerCase()).digest('hex').slice(0, 24);
    return `\\\\.\\pipe\\cairn-${id}`;
  }
  const socket = path.join(storeDir, 'serve.sock');
  if (Buffer.byteLength(socket) <= MAX_SOCKET_PATH) return socket;
  const id = nodeCrypto().createHash('sha256').update(path.resolve(storeDir)).digest('hex').slice(0, 24);
  const short = path.join(shortSocketDir(), `${id}.sock`);
  return Buffer.byteLength(short) <= MAX_SOCKET_PATH ? short : undefined;
}

/** Where sockets of deep stores live: fixed, not taken from the environment, so every process agrees. */
export function shortSocketDir(): string {
  return `/tmp/cairn-${process.getuid?.() ?? 'user'}`;
}

/** `<store>/serve.pid`: written by a server as it starts, so clients do not start a second one meanwhile. */
export function pidFileFor(storeDir: string): string {
  return path.join(storeDir, 'serve.pid');
}

/** How long a server may take from its start to listening before its pid file stops counting. */
const STARTING_MS = 30_000;

/**
 * The pid file's text, opened non-blocking and read only when regular: a FIFO named serve.pid
 * must not hang every client (the client path loads no engine code, so not core/fsRead.ts).
 */
function readPidFile(file: string): string {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
  try {
    if (!fs.fstatSync(fd).isFile()) return '';
    return fs.readFileSync(fd, 'utf8').trim();
  } finally {
    fs.closeSync(fd);
  }
}

/** Whether another process wrote the pid file recently and is still alive: a server is starting. */
export function serverStarting(storeDir: string, nowMs: number = Date.now()): boolean {
  try {
    const file = pidFileFor(storeDir);
    const st = fs.statSync(file);
    const pid = Number(readPidFile(file));
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || nowMs - st.mtimeMs > STARTING_MS) return false;
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists (another user's); anything else: no such file or process.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
