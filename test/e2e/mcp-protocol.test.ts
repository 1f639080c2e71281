// The real `cairn mcp` server answers every line it is sent, as raw JSON-RPC over stdio: a
// malformed envelope gets an error reply with the request's id, a line that is not JSON a
// parse error, an oversized line is refused, and the server keeps serving after each.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { CLI } from './cli';

interface Reply {
  id: string | number | null;
  error?: { code: number; message: string };
  result?: unknown;
}

class RawSession {
  private readonly child: ChildProcessWithoutNullStreams;
  private buffer = '';
  private readonly waiting: Array<(r: Reply) => void> = [];
  private readonly replies: Reply[] = [];

  constructor(root: string, store: string) {
    this.child = spawn(process.execPath, [CLI, 'mcp', '--root', root, '--store', store], { env: { ...process.env, CAIRN_STORE: store, CAIRN_REGISTRY_REMOTE: '' } });
    this.child.stdout.on('data', (d: Buffer) => {
      this.buffer += d.toString();
      for (let nl = this.buffer.indexOf('\n'); nl >= 0; nl = this.buffer.indexOf('\n')) {
        const reply = JSON.parse(this.buffer.slice(0, nl)) as Reply;
        this.buffer = this.buffer.slice(nl + 1);
        const w = this.waiting.shift();
        if (w) w(reply);
        else this.replies.push(reply);
      }
    });
  }

  /** Sends raw text and waits for the next reply (or fails after a few seconds). */
  async send(text: string | Buffer): Promise<Reply> {
    this.child.stdin.write(text);
    const queued = this.replies.shift();
    if (queued) return queued;
    return new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no reply to ${String(text).slice(0, 80)}`)), 10000);
      this.waiting.push((r) => {
        clearTimeout(timer);
        resolve(r);
      });
    });
  }

  /** Sends a notification: nothing answers it. */
  notify(text: string): void {
    this.child.stdin.write(text);
  }

  close(): void {
    this.child.stdin.end();
    this.child.kill();
  }
}

describe('cairn mcp: every line gets an answer (raw JSON-RPC)', function () {
  this.timeout(60000);
  let base: string;
  let session: RawSession;

  before(async () => {
    base = mkdtempSync(path.join(tmpdir(), 'cairn-mcp-raw-'));
    mkdirSync(path.join(base, 'repo'));
    writeFileSync(path.join(base, 'repo', 'a.ts'), 'export function alpha() { return 1; }\n');
    session = new RawSession(path.join(base, 'repo'), path.join(base, 'store'));
    const init = await session.send(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`);
    assert.ok(init.result, JSON.stringify(init));
    session.notify(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  });
  after(() => {
    session.close();
    rmSync(base, { recursive: true, force: true });
  });

  const cases: Array<{ name: string; line: () => string | Buffer; expected: { id: string | number | null; code: number } }> = [
    { name: 'params that are a string', line: () => '{"jsonrpc":"2.0","id":2,"method":"tools/list","params":"x"}\n', expected: { id: 2, code: -32602 } },
    { name: 'jsonrpc "1.0"', line: () => '{"jsonrpc":"1.0","id":6,"method":"tools/list"}\n', expected: { id: 6, code: -32600 } },
    { name: 'tools/call with string params', line: () => '{"jsonrpc":"2.0","id":"call","method":"tools/call","params":"read_span"}\n', expected: { id: 'call', code: -32602 } },
    { name: 'no jsonrpc member', line: () => '{"id":3,"method":"tools/list"}\n', expected: { id: 3, code: -32600 } },
    { name: 'a line that is not JSON', line: () => 'garbage\n', expected: { id: null, code: -32700 } },
    { name: 'a batch, which this protocol version does not have', line: () => '[{"jsonrpc":"2.0","id":4,"method":"tools/list"}]\n', expected: { id: null, code: -32600 } },
    { name: 'a method that is a number', line: () => '{"jsonrpc":"2.0","id":"five","method":5}\n', expected: { id: 'five', code: -32600 } },
    { name: 'a line over the size limit', line: () => Buffer.concat([Buffer.alloc(5 * 1024 * 1024, 'a'), Buffer.from('\n')]), expected: { id: null, code: -32600 } },
  ];
  for (const c of cases) {
    it(`${c.name}: error ${c.expected.code}, and the server still answers`, async () => {
      const reply = await session.send(c.line());
      assert.deepEqual({ id: reply.id, code: reply.error?.code }, c.expected, JSON.stringify(reply));
      const ping = await session.send('{"jsonrpc":"2.0","id":99,"method":"ping"}\n');
      assert.deepEqual(ping.result, {});
    });
  }
});
