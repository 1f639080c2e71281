import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { ChunkPool, batchesOf, type ChunkPoolOptions } from '../../src/core/chunking/pool';
import { chunkByLines } from '../../src/core/chunking/lines';
import { DEFAULT_POLICY } from '../../src/core/chunking/policy';
import { CRASH_MARKER_ENV, FAIL_START_ENV } from '../../src/core/chunking/protocol';
import type { SourceDocument } from '../../src/core/types';
import { docOf, prng } from './lineChunkerSupport';

// tsc compiles this file to out/test/unit/; the worker entry to out/src/core/chunking/.
const WORKER = path.resolve(__dirname, '../../src/core/chunking/worker.js');
const GRAMMARS = path.resolve(__dirname, '../../../grammars');
const options = (workers: number): ChunkPoolOptions => ({ workerScript: WORKER, grammarsDir: GRAMMARS, workers, policy: DEFAULT_POLICY, strategy: 'lines' });

/** A mixed workspace: code, markdown, yaml, some large files, some CRLF. */
function corpus(count: number, seed = 1): SourceDocument[] {
  const random = prng(seed);
  const suffixes = ['ts', 'py', 'md', 'yaml', 'toml', 'txt'];
  return Array.from({ length: count }, (_, i) => {
    const suffix = suffixes[i % suffixes.length] as string;
    const lines = Array.from({ length: 5 + Math.floor(random() * (random() < 0.05 ? 3000 : 120)) }, (_, j) => {
      if (suffix === 'md' && j % 15 === 0) return `## Section ${j}`;
      if (suffix === 'yaml' && j % 6 === 0) return `key${j}:`;
      if (suffix === 'toml' && j % 10 === 0) return `[table${j}]`;
      return `${suffix === 'yaml' ? '  ' : ''}value_${j} = ${'v'.repeat(Math.floor(random() * 80))}`;
    });
    return docOf(`src/file${i}.${suffix}`, lines.join(i % 7 === 0 ? '\r\n' : '\n'));
  });
}

describe('ChunkPool', function () {
  this.timeout(30000);
  let pools: ChunkPool[] = [];
  const open = async (o: ChunkPoolOptions): Promise<ChunkPool> => {
    const pool = await ChunkPool.create(o);
    pools.push(pool);
    return pool;
  };
  afterEach(async () => {
    delete process.env[CRASH_MARKER_ENV];
    delete process.env[FAIL_START_ENV];
    await Promise.all(pools.map((p) => p.close()));
    pools = [];
  });

  it('in-process (workers: 0) gives exactly the line chunker results, in input order', async () => {
    const docs = corpus(60);
    const results = await (await open(options(0))).chunk(docs);
    assert.deepEqual(results.map((r) => r.path), docs.map((d) => d.path));
    docs.forEach((d, i) => assert.deepEqual(results[i]?.chunks, chunkByLines(d, DEFAULT_POLICY)));
  });

  it('two workers give results identical to in-process, in input order', async () => {
    const docs = corpus(400, 2);
    const inProcess = await (await open(options(0))).chunk(docs);
    const threaded = await (await open(options(2))).chunk(docs);
    assert.deepEqual(threaded.map((r) => r.path), docs.map((d) => d.path));
    assert.deepEqual(threaded, inProcess);
  });

  it('a worker never waits for its next batch: it is sent before the worker answers the one before', async () => {
    const pool = await open(options(1));
    const [slot] = (pool as unknown as { slots: Set<{ worker: import('node:worker_threads').Worker }> }).slots;
    const worker = slot!.worker;
    const sent: number[] = [];
    const post = worker.postMessage.bind(worker);
    worker.postMessage = (m: { type?: string; batch?: number }) => {
      if (m.type === 'batch') sent.push(m.batch as number);
      post(m);
    };
    /** For each batch, when its first files came back: the batches sent by then. */
    const sentWhenAnswered = new Map<number, number[]>();
    worker.on('message', (m: { type?: string; batch?: number }) => {
      if (m.type === 'files' && !sentWhenAnswered.has(m.batch as number)) sentWhenAnswered.set(m.batch as number, [...sent]);
    });
    await pool.chunk(corpus(300, 5));
    assert.ok(sent.length >= 3, `${sent.length} batches`);
    for (const [i, batch] of sent.slice(0, -1).entries()) {
      assert.ok(sentWhenAnswered.get(batch)?.includes(sent[i + 1] as number), `batch ${sent[i + 1]} was sent only after batch ${batch} was answered`);
    }
  });

  it('streams in input order and serves several jobs at once', async () => {
    const pool = await open(options(2));
    const [a, b] = [corpus(80, 3), corpus(50, 4)];
    const [ra, rb] = await Promise.all([pool.chunk(a), pool.chunk(b)]);
    assert.deepEqual(ra.map((r) => r.path), a.map((d) => d.path));
    assert.deepEqual(rb.map((r) => r.chunks.length), b.map((d) => chunkByLines(d, DEFAULT_POLICY).length));
  });

  it('survives a worker that dies on one file: that file gets line chunks and a diagnostic, the rest are untouched', async () => {
    process.env[CRASH_MARKER_ENV] = 'CAIRN-CRASH-ME';
    const docs = corpus(120, 5);
    const victims = [17, 18, 90];
    for (const v of victims) docs[v] = docOf(`src/victim${v}.ts`, `const a = 1;\n// CAIRN-CRASH-ME\nconst b = 2;\n`);
    const pool = await open(options(2));
    const results = await pool.chunk(docs);
    const expected = await (await open(options(0))).chunk(docs); // in-process: the hook only lives in the worker
    assert.deepEqual(results.map((r) => r.path), docs.map((d) => d.path));
    results.forEach((r, i) => {
      if (victims.includes(i)) {
        assert.deepEqual(r.diagnostics.map((d) => d.code), ['chunk-worker-crashed'], r.path);
        assert.match(r.diagnostics[0]?.message ?? '', /exit code 70/);
        assert.deepEqual(r.chunks, expected[i]?.chunks);
      } else {
        assert.deepEqual(r, expected[i], r.path);
      }
    });
    // The pool still works afterwards, on respawned workers.
    const again = await pool.chunk(corpus(30, 6));
    assert.equal(again.length, 30);
    assert.ok(again.every((r) => r.diagnostics.length === 0));
  });

  it('a crash late in a batch re-chunks the files done but not yet sent, and blames only the file it was on', async () => {
    process.env[CRASH_MARKER_ENV] = 'CAIRN-CRASH-ME';
    // 130 small files make one batch; replies group up to 64 files, so when the worker dies on
    // file 100, files 64-99 are chunked and unsent.
    const docs = Array.from({ length: 130 }, (_, i) => docOf(`src/small${i}.ts`, `export const value${i} = ${i};\n`));
    docs[100] = docOf('src/victim.ts', 'const a = 1;\n// CAIRN-CRASH-ME\n');
    const results = await (await open(options(1))).chunk(docs);
    const expected = await (await open(options(0))).chunk(docs);
    assert.deepEqual(results.map((r) => r.path), docs.map((d) => d.path));
    results.forEach((r, i) => {
      if (i === 100) {
        assert.deepEqual(r.diagnostics.map((d) => d.code), ['chunk-worker-crashed']);
        assert.deepEqual(r.chunks, expected[i]?.chunks);
      } else assert.deepEqual(r, expected[i], r.path);
    });
  });

  it('when a crashed worker cannot be restarted, the remaining files are chunked by lines in-process', async () => {
    process.env[CRASH_MARKER_ENV] = 'CAIRN-CRASH-ME';
    const pool = await open(options(1));
    process.env[FAIL_START_ENV] = '1'; // read by workers started from now on: the respawn
    const docs = corpus(40, 11);
    docs[5] = docOf('src/victim.ts', 'CAIRN-CRASH-ME\n');
    const results = await pool.chunk(docs);
    assert.deepEqual(results.map((r) => r.path), docs.map((d) => d.path));
    assert.equal(results[5]?.diagnostics[0]?.code, 'chunk-worker-crashed');
    // Files before the victim were chunked by the worker but, replies being grouped, not sent
    // before it died: like every file after it, they are chunked again here, with the reason.
    for (const r of [...results.slice(0, 5), ...results.slice(6)]) {
      assert.equal(r.diagnostics[0]?.code, 'chunk-worker-unavailable', r.path);
      assert.match(r.diagnostics[0]?.message ?? '', /start-up failure requested by the test hook/);
    }
    docs.forEach((d, i) => assert.deepEqual(results[i]?.chunks, chunkByLines(d, DEFAULT_POLICY)));
    assert.equal((await pool.chunk(corpus(3, 12))).length, 3, 'later jobs are served too');
  });

  it('a consumer that stops early leaves the pool usable', async () => {
    const pool = await open(options(2));
    for await (const first of pool.stream(corpus(200, 7))) {
      assert.ok(first.path);
      break;
    }
    assert.equal((await pool.chunk(corpus(10, 8))).length, 10);
  });

  it('rejects at creation when the worker script cannot start', async () => {
    await assert.rejects(ChunkPool.create({ ...options(1), workerScript: path.join(__dirname, 'no-such-worker.js') }), /failed to start/);
  });

  it('refuses work after close, and fails a stream that close interrupts', async () => {
    const pool = await ChunkPool.create(options(1));
    const interrupted = assert.rejects(pool.chunk(corpus(300, 9)), /closed/);
    await pool.close();
    await interrupted;
    await assert.rejects(pool.chunk(corpus(1)), /closed/);
  });

  it('handles an empty job', async () => {
    assert.deepEqual(await (await open(options(2))).chunk([]), []);
  });

  it('under the ast strategy each worker parses with its own AST chunker, matching in-process results', async () => {
    const docs = corpus(60, 10);
    docs.push(docOf('src/real.ts', 'export class Greeter {\n  greet(name: string): string {\n    return `hi ${name}`;\n  }\n}\n'));
    const threaded = await (await open({ ...options(2), strategy: 'ast' })).chunk(docs);
    const inProcess = await (await open({ ...options(0), strategy: 'ast' })).chunk(docs);
    assert.deepEqual(threaded, inProcess);
    for (const r of threaded) assert.ok(r.chunks.length > 0, r.path);
    const real = threaded.at(-1);
    assert.equal(real?.strategy, 'ast', JSON.stringify(real?.diagnostics));
    assert.ok(real?.chunks.some((c) => c.symbol === 'greet'), JSON.stringify(real?.chunks.map((c) => c.context)));
  });
});

describe('batchesOf', () => {
  const sized = (...sizes: number[]): SourceDocument[] => sizes.map((n, i) => docOf(`f${i}.txt`, 'x'.repeat(n)));
  it('keeps input order and covers every document once', () => {
    const batches = batchesOf(sized(...Array.from({ length: 500 }, (_, i) => (i * 7919) % 20000)), 2);
    assert.deepEqual(batches.flat(), Array.from({ length: 500 }, (_, i) => i));
  });
  it('cuts by bytes, not by count: a large file travels alone, small ones share', () => {
    const batches = batchesOf(sized(100, 100, 900_000, 100, 100), 2);
    assert.deepEqual(batches, [[0, 1], [2], [3, 4]]);
  });
  it('makes several batches per worker so the last ones finish together', () => {
    const batches = batchesOf(sized(...Array.from({ length: 1000 }, () => 4000)), 2);
    assert.ok(batches.length >= 16, `${batches.length} batches`);
  });
});
