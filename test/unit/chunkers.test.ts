// Who chunks for a refresh, and when its worker threads go. A build lets its chunk workers go as
// soon as the last file is chunked, before it builds the last segment (the build's peak of
// memory: the workers' heaps and parser memory are hundreds of MB on a big tree); threads a job
// still uses are never let go, and a problem the released threads met is still reported once.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_POLICY } from '../../src/core/chunking/policy';
import { Chunkers } from '../../src/core/engine/chunkers';
import { refreshIndex, type Chunker } from '../../src/core/engine/indexer';
import { IndexStore } from '../../src/core/store/store';
import type { SourceDocument } from '../../src/core/types';
import { docOf } from './lineChunkerSupport';
import { GRAMMARS_DIR, TempWorkspace } from './helpers/workspace';

// tsc compiles this file to out/test/unit/; the worker entry to out/src/core/chunking/.
const WORKER = path.resolve(__dirname, '../../src/core/chunking/worker.js');

/** Enough text that a job goes to the worker threads (chunkers.ts chunks less in-process). */
function bigJob(prefix: string): SourceDocument[] {
  const text = Array.from({ length: 4000 }, (_, i) => `value_${i} = ${'v'.repeat(40)}`).join('\n') + '\n';
  return Array.from({ length: 3 }, (_, i) => docOf(`${prefix}/notes${i}.txt`, text));
}

/** Chunks a job; says whether it started worker threads (only a job that starts them hears start-up). */
async function startedThreads(chunker: Chunker, docs: SourceDocument[]): Promise<boolean> {
  let startup = false;
  const results = await chunker.chunk(docs, undefined, { file: () => {}, startup: () => (startup = true) });
  assert.equal(results.length, docs.length);
  return startup;
}

describe('chunkers: worker threads go when a refresh has nothing more to chunk', function () {
  this.timeout(60_000);
  const make = (grammarsDir = GRAMMARS_DIR) => new Chunkers({ grammarsDir, workerScript: WORKER, workers: 1, policy: DEFAULT_POLICY, strategy: 'lines' });

  const cases: Array<{ name: string; finishedWhile: 'idle' | 'a job runs' | 'never'; nextJobStartsThreads: boolean }> = [
    { name: 'finished with no job running: the threads go, and the next big job starts new ones', finishedWhile: 'idle', nextJobStartsThreads: true },
    { name: 'finished while a job runs: the job ends whole and the threads stay', finishedWhile: 'a job runs', nextJobStartsThreads: false },
    { name: 'not finished: the threads stay for the next job', finishedWhile: 'never', nextJobStartsThreads: false },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const chunkers = make();
      try {
        const chunker = chunkers.chunker();
        assert.equal(await startedThreads(chunker, bigJob('a')), true, 'the first big job starts the threads');
        if (c.finishedWhile === 'idle') await chunker.finished?.();
        if (c.finishedWhile === 'a job runs') {
          const running = startedThreads(chunker, bigJob('b'));
          await chunker.finished?.();
          assert.equal(await running, false);
        }
        assert.equal(await startedThreads(chunker, bigJob('c')), c.nextJobStartsThreads);
      } finally {
        await chunkers.close();
      }
    });
  }

  it("a problem the released threads met is reported once, to the refresh that used them", async () => {
    const chunkers = new Chunkers({ grammarsDir: path.join(__dirname, 'no-such-grammars'), workerScript: WORKER, workers: 1, policy: DEFAULT_POLICY, strategy: 'ast' });
    try {
      const chunker = chunkers.chunker();
      await chunker.chunk(bigJob('a'));
      await chunker.finished?.();
      assert.deepEqual((await chunkers.diagnostics()).map((d) => d.code), ['ast-unavailable']);
      assert.deepEqual(await chunkers.diagnostics(), []);
    } finally {
      await chunkers.close();
    }
  });

  it('a build says it is finished once, after its last chunk job and before its segment is written', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 900; i++) files[`src/m${i}.txt`] = `line ${i}\n`;
    const ws = new TempWorkspace(files);
    const chunkers = new Chunkers({ grammarsDir: GRAMMARS_DIR, workers: 0, policy: DEFAULT_POLICY, strategy: 'lines' });
    try {
      const events: string[] = [];
      const segments = (): number => (fs.existsSync(ws.storeDir) ? fs.readdirSync(ws.storeDir).filter((f) => f.endsWith('.cseg')).length : 0);
      const inner = chunkers.chunker();
      const recording: Chunker = {
        chunk: async (docs, signal, listener) => {
          events.push(`chunk ${docs.length}`);
          return inner.chunk(docs, signal, listener);
        },
        finished: async () => {
          events.push(`finished, ${segments()} segments written`);
        },
      };
      const report = await refreshIndex({ root: ws.root, store: new IndexStore(ws.storeDir, ws.root), discovery: {}, policy: DEFAULT_POLICY, strategy: 'lines', chunker: async () => recording });
      assert.equal(report.files, 900);
      assert.deepEqual(events, ['chunk 400', 'chunk 400', 'chunk 100', 'finished, 0 segments written']);
      assert.equal(segments(), 1);
    } finally {
      await chunkers.close();
      await ws.dispose();
    }
  });
});
