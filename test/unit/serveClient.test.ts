// The launcher's side of `cairn serve` against stand-in servers on a real socket: a server that
// does not say hello in time is bypassed at once (with a note), one that said hello may take
// longer to answer, and a late one is never sent the command it would run for nobody.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { checkAll } from './check';
import { askServer, HELLO_TIMEOUT_MS, unresponsiveNote } from '../../src/server/client';
import { OUR_IDENTITY } from '../../src/server/protocol';

/** How a stand-in server behaves: when it says hello and when it answers the command (ms; undefined: never). */
interface Behaviour {
  helloAfterMs?: number;
  answerAfterMs?: number;
}

interface Seen {
  outcome: string;
  stdout: string;
  stderr: string;
  /** Whether the command reached the server. */
  ran: boolean;
}

function capture(): NodeJS.WriteStream & { text(): string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (d) => (text += String(d)));
  return Object.assign(stream as unknown as NodeJS.WriteStream, { text: () => text });
}

async function ask(b: Behaviour): Promise<Seen & { elapsedMs: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-client-'));
  const root = path.join(dir, 'root');
  const store = path.join(dir, 's');
  fs.mkdirSync(root);
  fs.mkdirSync(store);
  let ran = false;
  const timers: NodeJS.Timeout[] = [];
  const server = net.createServer((conn) => {
    conn.on('error', () => undefined);
    conn.on('data', (d) => {
      for (const line of String(d).split('\n').filter(Boolean)) {
        const m = JSON.parse(line) as { type: string };
        if (m.type === 'hello' && b.helloAfterMs !== undefined) {
          timers.push(setTimeout(() => conn.write(`${JSON.stringify({ type: 'welcome', pid: 4242, root, storeDir: store, ...OUR_IDENTITY })}\n`), b.helloAfterMs));
        }
        if (m.type === 'run') {
          ran = true;
          if (b.answerAfterMs !== undefined) timers.push(setTimeout(() => conn.write(`${JSON.stringify({ type: 'result', stdout: 'served\n', stderr: '', exitCode: 0 })}\n`), b.answerAfterMs));
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(path.join(store, 'serve.sock'), resolve));
  const stdout = capture();
  const stderr = capture();
  const started = Date.now();
  try {
    const outcome = await askServer({ argv: ['search', 'x', '--store', store], cwd: root, env: { CAIRN_SERVER: '1' }, stdout, stderr });
    const elapsedMs = Date.now() - started;
    // Let a late server see (or not see) the command.
    await new Promise((r) => setTimeout(r, 100 + (b.helloAfterMs ?? 0) - elapsedMs));
    return { outcome: outcome.kind, stdout: stdout.text(), stderr: stderr.text().replace(root, 'ROOT'), ran, elapsedMs };
  } finally {
    for (const t of timers) clearTimeout(t);
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('serve client: a server that does not answer never holds up a command', () => {
  const note = unresponsiveNote('ROOT', HELLO_TIMEOUT_MS);
  checkAll<Behaviour, Seen>(
    [
      { name: 'a server that never says hello (stopped): answered without it, with a note', input: {}, expected: { outcome: 'in-process', stdout: '', stderr: note, ran: false } },
      { name: 'a server whose hello comes too late is not sent the command', input: { helloAfterMs: HELLO_TIMEOUT_MS + 300 }, expected: { outcome: 'in-process', stdout: '', stderr: note, ran: false } },
      { name: 'a server that said hello may take longer than the hello bound to answer', input: { helloAfterMs: 0, answerAfterMs: HELLO_TIMEOUT_MS + 400 }, expected: { outcome: 'answered', stdout: 'served\n', stderr: '', ran: true } },
    ],
    async (b) => {
      const { elapsedMs, ...seen } = await ask(b);
      if (seen.outcome === 'in-process') assert.ok(elapsedMs < HELLO_TIMEOUT_MS + 500, `bypassed after ${elapsedMs} ms`);
      return seen;
    },
  );

  it('says which root and how long it waited', () => {
    assert.equal(unresponsiveNote('/w/app', 300), 'cairn: the server for /w/app did not answer in 300 ms; answered without it\n');
  });
});
