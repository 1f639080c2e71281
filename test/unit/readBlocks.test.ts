// Whole files a query reads (ReadBlocks): every byte of each file, whatever its stat said, and
// small files packed into shared blocks, so that a lookup reading thousands of them leaves no
// heap behind in an idle server once it lets go of them.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkAll } from './check';
import { ReadBlocks } from '../../src/core/fsRead';
import { SERVER_NODE_FLAGS, serverEnv } from '../../src/server/protocol';

const HYDRATE_MODULE = path.join(__dirname, '..', '..', 'src', 'core', 'search', 'hydrate.js');
const PROTOCOL_MODULE = path.join(__dirname, '..', '..', 'src', 'server', 'protocol.js');

describe('ReadBlocks: whole files read for one query', () => {
  let root: string;
  before(() => (root = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-blocks-'))));
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  /** Reads each file through one ReadBlocks, telling it `statSize(actual)` as the file's size; then checks every buffer still holds its file. */
  const readAll = (files: Array<{ bytes: number; statSize?: (actual: number) => number }>) => {
    const blocks = new ReadBlocks();
    const written = files.map((f, i) => {
      const content = Buffer.alloc(f.bytes, String.fromCharCode(97 + (i % 26)));
      const file = path.join(root, `f${i}-${f.bytes}.txt`);
      fs.writeFileSync(file, content);
      return { file, content, statSize: f.statSize ?? ((n: number) => n) };
    });
    const read = written.map((w) => {
      const fd = fs.openSync(w.file, 'r');
      try {
        return blocks.read(fd, w.statSize(w.content.length));
      } finally {
        fs.closeSync(fd);
      }
    });
    return {
      intact: read.every((bytes, i) => bytes.equals(written[i]!.content)),
      lengths: read.map((b) => b.length),
      blocks: new Set(read.map((b) => b.buffer)).size,
    };
  };

  checkAll<Array<{ bytes: number; statSize?: (actual: number) => number }>, { intact: boolean; lengths: number[]; blocks: number }>(
    [
      { name: 'small files share one block, each intact', input: [{ bytes: 10 }, { bytes: 3000 }, { bytes: 1 }], expected: { intact: true, lengths: [10, 3000, 1], blocks: 1 } },
      { name: 'an empty file', input: [{ bytes: 0 }, { bytes: 5 }], expected: { intact: true, lengths: [0, 5], blocks: 1 } },
      { name: 'a file grown since its stat is read whole', input: [{ bytes: 5000, statSize: (n) => n - 100 }, { bytes: 7 }], expected: { intact: true, lengths: [5000, 7], blocks: 2 } },
      { name: 'a file shrunk since its stat gives what it holds', input: [{ bytes: 50, statSize: (n) => n + 4000 }, { bytes: 9 }], expected: { intact: true, lengths: [50, 9], blocks: 1 } },
      { name: 'a large file gets a buffer of its own', input: [{ bytes: 200_000 }, { bytes: 12 }], expected: { intact: true, lengths: [200_000, 12], blocks: 2 } },
      { name: 'files past a block go on in the next', input: Array.from({ length: 40 }, () => ({ bytes: 10_000 })), expected: { intact: true, lengths: Array(40).fill(10_000), blocks: 2 } },
    ],
    readAll,
  );
});

/**
 * In a process started as the server is: a FileReader reads 6,000 files of 4 KB whole (a
 * references lookup's share of a test suite), is dropped, and the server's collection runs.
 * Prints how much of glibc's heap ([heap] in smaps) is resident before and after, in MB.
 */
const SCRIPT = (root: string) => `
const fs = require('node:fs');
const { FileReader } = require(${JSON.stringify(HYDRATE_MODULE)});
const { fullCollection } = require(${JSON.stringify(PROTOCOL_MODULE)});
const heapMb = () => Number(/\\[heap\\]\\n(?:.*\\n)*?Rss:\\s+(\\d+)/.exec(fs.readFileSync('/proc/self/smaps', 'utf8'))?.[1] ?? 0) / 1024;
const before = heapMb();
let reader = new FileReader(${JSON.stringify(root)});
let chars = 0;
for (const name of fs.readdirSync(${JSON.stringify(root)})) chars += reader.wholeText(name).length;
// Something small the process keeps, allocated after the reads (the top of the heap).
const kept = Buffer.from('kept after the lookup'.repeat(20));
reader = undefined;
fullCollection(globalThis.gc)();
process.stdout.write(JSON.stringify({ before, after: heapMb(), chars, kept: kept.length }));
`;

describe('serve: memory after a references lookup', function () {
  this.timeout(60000);
  let root: string;
  before(function () {
    if (process.platform !== 'linux') this.skip();
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-lookup-'));
    for (let i = 0; i < 6000; i++) fs.writeFileSync(path.join(root, `t${i}.js`), `assert.sameValue(${i}, ${i});\n`.padEnd(4000, '/') + '\n');
  });
  after(() => root && fs.rmSync(root, { recursive: true, force: true }));

  it("hands back the memory of the files a lookup read once they are let go", () => {
    const run = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, '-e', SCRIPT(root)], { encoding: 'utf8', timeout: 50_000, env: serverEnv(process.env) });
    assert.equal(run.status, 0, run.stderr);
    const { before, after, chars } = JSON.parse(run.stdout) as { before: number; after: number; chars: number };
    assert.equal(chars, 6000 * 4001);
    // 24 MB of files were read; as a malloc each they stayed in glibc's heap.
    assert.ok(after - before < 6, `glibc's heap grew from ${before.toFixed(1)} to ${after.toFixed(1)} MB and stayed`);
  });
});
