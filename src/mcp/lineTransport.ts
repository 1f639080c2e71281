// MCP over stdio, one JSON-RPC message a line, where no input goes unanswered: a line that is
// not JSON gets a parse error (-32700), an envelope that is not a valid request (no
// `jsonrpc: "2.0"`, params that are neither an object nor an array, a batch) an invalid
// request or params error (-32600 / -32602) with the request's id, and a line over the size
// limit is refused and skipped while the server goes on. The SDK's own stdio transport drops
// all of these silently, so a client waits forever for a reply.
//
// Backpressure: a client that stops reading stdout must not make the server buffer without
// bound. Lines are taken from stdin only while stdout has room (its last write did not return
// false) and fewer than `maxInFlight` requests await their answers; otherwise stdin is paused,
// so the client's writes block in the pipe instead of piling up in this process.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The longest line read as a message; longer ones are refused (MCP messages are small). */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

/** Requests handled at once; more wait in stdin until one is answered. */
export const MAX_IN_FLIGHT = 32;

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;

type Id = string | number | null;

interface Problem {
  code: number;
  message: string;
  id: Id;
}

/** Why a parsed line is not a message the server can take, or undefined when it is one. */
export function envelopeProblem(value: unknown): Problem | undefined {
  if (Array.isArray(value)) return { code: INVALID_REQUEST, message: 'batch requests are not supported by this protocol version', id: null };
  if (typeof value !== 'object' || value === null) return { code: INVALID_REQUEST, message: 'a message must be a JSON object', id: null };
  const v = value as Record<string, unknown>;
  const id: Id = typeof v.id === 'string' || typeof v.id === 'number' ? v.id : null;
  if (v.jsonrpc !== '2.0') return { code: INVALID_REQUEST, message: 'missing or wrong "jsonrpc" (must be "2.0")', id };
  if ('params' in v && (typeof v.params !== 'object' || v.params === null)) return { code: INVALID_PARAMS, message: '"params" must be an object or an array', id };
  if ('method' in v && typeof v.method !== 'string') return { code: INVALID_REQUEST, message: '"method" must be a string', id };
  return undefined;
}

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Chunks read from stdin and not yet split into lines (at most one while paused). */
  private inbox: Buffer[] = [];
  /** The start of a line whose newline has not arrived yet. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Set while the rest of an over-long line is being skipped. */
  private skipping = false;
  /** Requests handed to the server and not answered yet, by id. */
  private readonly open = new Set<string>();
  /** stdout's last write returned false and 'drain' has not come yet. */
  private outputFull = false;
  private inputPaused = false;
  private pumping = false;
  private closed = false;

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
    private readonly maxLineBytes = MAX_LINE_BYTES,
    private readonly maxInFlight = MAX_IN_FLIGHT,
  ) {}

  private readonly onData = (chunk: Buffer | string): void => {
    this.inbox.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    this.pump();
  };

  private readonly onDrain = (): void => {
    this.outputFull = false;
    this.pump();
  };

  private readonly onStreamError = (e: Error): void => this.onerror?.(e);

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onStreamError);
  }

  private blocked(): boolean {
    return this.outputFull || this.open.size >= this.maxInFlight;
  }

  /** Takes lines from the inbox while the server may take more, then pauses or resumes stdin. */
  private pump(): void {
    if (this.pumping || this.closed) return;
    this.pumping = true;
    try {
      while (this.inbox.length > 0 && !this.blocked()) {
        const data = this.inbox[0]!;
        const nl = data.indexOf(10);
        if (nl < 0) {
          this.inbox.shift();
          this.keepPartial(data);
          continue;
        }
        const rest = data.subarray(nl + 1);
        if (rest.length > 0) this.inbox[0] = rest;
        else this.inbox.shift();
        if (this.skipping) {
          this.skipping = false;
          continue;
        }
        const tail = data.subarray(0, nl);
        const line = this.pending.length ? Buffer.concat([...this.pending, tail]) : tail;
        this.pending = [];
        this.pendingBytes = 0;
        this.handleLine(line);
      }
    } finally {
      this.pumping = false;
    }
    const wantPause = this.inbox.length > 0 || this.blocked();
    if (wantPause && !this.inputPaused) {
      this.inputPaused = true;
      this.input.pause();
    } else if (!wantPause && this.inputPaused) {
      this.inputPaused = false;
      this.input.resume();
    }
  }

  private keepPartial(data: Buffer): void {
    if (this.skipping || data.length === 0) return;
    this.pending.push(Buffer.from(data));
    this.pendingBytes += data.length;
    if (this.pendingBytes > this.maxLineBytes) {
      this.pending = [];
      this.pendingBytes = 0;
      this.skipping = true;
      this.reply({ code: INVALID_REQUEST, message: `a message longer than ${this.maxLineBytes} bytes was refused`, id: null });
    }
  }

  private handleLine(bytes: Buffer): void {
    const text = bytes.toString('utf8').replace(/\r$/, '');
    if (!text.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      this.reply({ code: PARSE_ERROR, message: `not JSON: ${(e as Error).message}`, id: null });
      return;
    }
    const problem = envelopeProblem(value);
    if (problem) {
      this.reply(problem);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = (value as { id?: unknown }).id;
      this.reply({ code: INVALID_REQUEST, message: 'not a JSON-RPC request, notification or response', id: typeof id === 'string' || typeof id === 'number' ? id : null });
      return;
    }
    this.track(parsed.data);
    this.onmessage?.(parsed.data);
  }

  /**
   * Counts a request as open until its answer is sent. A cancelled request gets no answer (the
   * SDK drops it), so its cancellation closes it here.
   */
  private track(message: JSONRPCMessage): void {
    const m = message as { id?: unknown; method?: unknown; params?: { requestId?: unknown } };
    if (typeof m.method !== 'string') return;
    if (m.id !== undefined) this.open.add(idKey(m.id));
    else if (m.method === 'notifications/cancelled' && m.params?.requestId !== undefined) this.open.delete(idKey(m.params.requestId));
  }

  private reply(problem: Problem): void {
    this.onerror?.(new Error(problem.message));
    this.write(`${JSON.stringify({ jsonrpc: '2.0', id: problem.id, error: { code: problem.code, message: problem.message } })}\n`);
  }

  private write(line: string): void {
    if (this.output.write(line) || this.outputFull) return;
    this.outputFull = true;
    this.output.once('drain', this.onDrain);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.write(`${JSON.stringify(message)}\n`);
    const m = message as { id?: unknown; method?: unknown };
    if (m.method === undefined && m.id !== undefined && this.open.delete(idKey(m.id))) this.pump();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onStreamError);
    this.output.off('drain', this.onDrain);
    if (this.input === process.stdin) process.stdin.pause();
    this.inbox = [];
    this.pending = [];
    this.onclose?.();
  }
}

/** One key per JSON-RPC id: the number 1 and the string "1" are different requests. */
function idKey(id: unknown): string {
  return `${typeof id}:${String(id)}`;
}
