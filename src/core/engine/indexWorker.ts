// Worker-thread entry (dist/indexWorker.js): runs one index build (or big refresh) on a thread
// whose JS heap is capped. Uncapped, V8 let the indexing thread's heap grow to several times what
// it held live before collecting; the cap makes it collect sooner, at a small cost in time. It runs
// the indexer itself, not an engine: no reads happen here. Messages are typed in indexJob.ts.
import * as path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { resolvePolicy } from '../chunking/policy';
import { IndexStore } from '../store/store';
import { Chunkers } from './chunkers';
import { refreshHere } from './localRefresh';
import { adoptTimings } from '../timings';
import type { IndexJobData, IndexJobReply, IndexJobRequest } from './indexJob';

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('indexWorker must run in a worker thread');
  const { engine: options, refresh, timings, reportPending } = workerData as IndexJobData;
  adoptTimings(timings);
  const abort = new AbortController();
  port.on('message', (m: IndexJobRequest) => {
    if (m.type === 'abort') abort.abort();
  });
  const send = (m: IndexJobReply) => port.postMessage(m);
  const policy = resolvePolicy(options.policy);
  const chunkers = new Chunkers({ grammarsDir: options.grammarsDir, workerScript: options.workerScript, workers: options.workers, policy, strategy: options.strategy ?? 'ast' });
  try {
    const report = await refreshHere(
      { root: path.resolve(options.root), store: new IndexStore(path.resolve(options.storeDir), path.resolve(options.root)), options, policy, chunkers },
      {
        ...refresh,
        signal: abort.signal,
        onProgress: (progress) => send({ type: 'progress', progress }),
        ...(reportPending ? { onPending: (paths: readonly string[]) => send({ type: 'pending', paths }) } : {}),
      },
    );
    send({ type: 'done', report });
  } catch (e) {
    send({ type: 'failed', aborted: abort.signal.aborted, name: e instanceof Error ? e.name : 'Error', message: e instanceof Error ? e.message : String(e) });
  } finally {
    await chunkers.close();
    port.close();
  }
}

void main();
