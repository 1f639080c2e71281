// MCP over stdio, one JSON-RPC message a line, where no input goes unanswered: a line that is
// not JSON gets a parse error (-32700), an envelope that is not a valid request (no
// `jsonrpc: "2.0"`, params that are neither an object nor an array, a batch) an invalid
// request or params error (-32600 / -32602) with the request's id, and a line over the size
// limit is refused and skipped while the server goes on. The SDK's own stdio transport drops
// all of these silently, so a client waits forever for a reply.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The longest line read as a message; longer ones are refused (MCP messages are small). */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

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
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Set while the rest of an over-long line is being skipped. */
  private skipping = false;

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
    private readonly maxLineBytes = MAX_LINE_BYTES,
  ) {}

  private readonly onData = (chunk: Buffer | string): void => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let nl = data.indexOf(10); nl >= 0; nl = data.indexOf(10)) {
      const tail = data.subarray(0, nl);
      data = data.subarray(nl + 1);
      if (this.skipping) {
        this.skipping = false;
        continue;
      }
      const line = this.pending.length ? Buffer.concat([...this.pending, tail]) : tail;
      this.pending = [];
      this.pendingBytes = 0;
      this.handleLine(line);
    }
    if (this.skipping || data.length === 0) return;
    this.pending.push(Buffer.from(data));
    this.pendingBytes += data.length;
    if (this.pendingBytes > this.maxLineBytes) {
      this.pending = [];
      this.pendingBytes = 0;
      this.skipping = true;
      this.reply({ code: INVALID_REQUEST, message: `a message longer than ${this.maxLineBytes} bytes was refused`, id: null });
    }
  };

  private readonly onStreamError = (e: Error): void => this.onerror?.(e);

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onStreamError);
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
    this.onmessage?.(parsed.data);
  }

  private reply(problem: Problem): void {
    this.onerror?.(new Error(problem.message));
    this.output.write(`${JSON.stringify({ jsonrpc: '2.0', id: problem.id, error: { code: problem.code, message: problem.message } })}\n`);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const json = `${JSON.stringify(message)}\n`;
    await new Promise<void>((resolve) => {
      if (this.output.write(json)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    this.input.off('data', this.onData);
    this.input.off('error', this.onStreamError);
    if (this.input === process.stdin) process.stdin.pause();
    this.pending = [];
    this.onclose?.();
  }
}
