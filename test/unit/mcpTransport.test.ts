// The MCP line transport's backpressure, with streams standing in for stdin and stdout: while
// stdout is full, or as many requests as allowed await answers, no further line is handed to
// the server and stdin is paused; a drain or an answer lets the next lines through.
import * as assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LineTransport } from '../../src/mcp/lineTransport';
import { checkAll } from './check';

/** A stdout whose write reports "full" while `full` is set, and which drains on demand. */
class FakeStdout extends Writable {
  full = false;
  lines: string[] = [];
  override write(chunk: unknown): boolean {
    this.lines.push(String(chunk));
    return !this.full;
  }
  drainNow(): void {
    this.full = false;
    this.emit('drain');
  }
}

type Step = 'fill' | 'drain' | 'answer-oldest';

interface Seen {
  /** Request ids handed to the server, in order. */
  delivered: number[];
  paused: boolean;
}

const request = (id: number): string => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })}\n`;

const cancel = (id: number): string => `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } })}\n`;

async function run(steps: Step[], maxInFlight = 2, stream = [1, 2, 3, 4, 5].map(request).join('')): Promise<Seen> {
  const input = new PassThrough();
  const output = new FakeStdout();
  const transport = new LineTransport(input, output, 1024, maxInFlight);
  const delivered: number[] = [];
  transport.onmessage = (m: JSONRPCMessage) => {
    if ('id' in m && typeof m.id === 'number') delivered.push(m.id);
  };
  await transport.start();
  input.write(stream);
  await new Promise((r) => setImmediate(r));
  let answered = 0;
  // The oldest request not answered (or cancelled) yet.
  const oldest = (): number => delivered[answered++]!;
  for (const step of steps) {
    if (step === 'fill') {
      output.full = true;
      await transport.send({ jsonrpc: '2.0', id: oldest(), result: {} });
    } else if (step === 'drain') output.drainNow();
    else await transport.send({ jsonrpc: '2.0', id: oldest(), result: {} });
    await new Promise((r) => setImmediate(r));
  }
  const seen = { delivered, paused: input.isPaused() };
  await transport.close();
  return seen;
}

describe('MCP line transport: backpressure', () => {
  checkAll<Step[], Seen>(
    [
      { name: 'no more than the in-flight limit is handed over, and stdin pauses', input: [], expected: { delivered: [1, 2], paused: true } },
      { name: 'an answer lets the next request through', input: ['answer-oldest'], expected: { delivered: [1, 2, 3], paused: true } },
      { name: 'a full stdout holds the next request back even after an answer', input: ['fill'], expected: { delivered: [1, 2], paused: true } },
      { name: "stdout's drain lets it through", input: ['fill', 'drain'], expected: { delivered: [1, 2, 3], paused: true } },
    ],
    (steps) => run(steps),
  );

  it('a cancelled request, which the server does not answer, frees its place', async () => {
    const seen = await run([], 2, [request(1), cancel(1), request(2), request(3), request(4)].join(''));
    assert.deepEqual(seen, { delivered: [1, 2, 3], paused: true });
  });

  it('reads on once everything is answered', async () => {
    const seen = await run(['answer-oldest', 'answer-oldest', 'answer-oldest', 'answer-oldest'], 2);
    assert.deepEqual(seen, { delivered: [1, 2, 3, 4, 5], paused: false });
  });
});
