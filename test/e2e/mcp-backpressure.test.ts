// A client that stops reading the real `cairn mcp` server's stdout: the server stops reading
// requests until its replies are taken, so its memory stays bounded however many requests are
// queued behind it, and once the client reads again every request is answered.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { CLI } from './cli';

/** Resident memory of a process, in MiB, from /proc (Linux only). */
function rssMiB(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('cairn mcp: a client that stops reading stdout', function () {
  this.timeout(120000);
  if (process.platform !== 'linux') return;
  let base: string;

  before(() => {
    base = mkdtempSync(path.join(tmpdir(), 'cairn-mcp-bp-'));
    mkdirSync(path.join(base, 'repo'));
    // 300 lines of 80 characters: each read_span answer is about 25 KB.
    const body = Array.from({ length: 300 }, (_, i) => `export const line${String(i).padStart(4, '0')} = '${'x'.repeat(56)}';`).join('\n');
    writeFileSync(path.join(base, 'repo', 'big.ts'), `${body}\n`);
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  it('keeps the server under a memory bound, then answers every request', async () => {
    const requests = 6000; // about 150 MB of answers if all were held at once
    const child = spawn(process.execPath, [CLI, 'mcp', '--root', path.join(base, 'repo'), '--store', path.join(base, 'store'), '--no-usage'], {
      env: { ...process.env, CAIRN_REGISTRY_REMOTE: '', CAIRN_SERVER: '0' },
    });
    try {
      child.stdin.on('error', () => undefined);
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const send = (message: object): boolean => child.stdin.write(`${JSON.stringify(message)}\n`);
      send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'slow', version: '1' } } });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      for (let id = 1; id <= requests; id++) send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'read_span', arguments: { span: 'big.ts:1-300' } } });
      // stdout is not read: its pipe fills, and the server must stop taking requests.
      let peak = 0;
      for (let i = 0; i < 40; i++) {
        await sleep(250);
        peak = Math.max(peak, rssMiB(child.pid!));
      }
      assert.ok(peak < 250, `the server grew to ${Math.round(peak)} MiB while its client was not reading; stderr: ${stderr.slice(-500)}`);

      // Now read everything: each request gets its answer.
      const answered = new Set<number>();
      let buffer = '';
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${answered.size} of ${requests + 1} requests answered`)), 90000);
        child.stdout.on('data', (d: Buffer) => {
          buffer += d.toString();
          for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
            const reply = JSON.parse(buffer.slice(0, nl)) as { id: number; result?: { isError?: boolean } };
            buffer = buffer.slice(nl + 1);
            if (reply.result && !reply.result.isError) answered.add(reply.id);
          }
          if (answered.size === requests + 1) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
    } finally {
      child.kill();
    }
  });
});
