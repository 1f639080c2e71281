// Worker-thread entry (dist/indexWorker.js): runs one whole-tree index build for an Engine, on
// a thread whose JS heap is capped. Uncapped, V8 let the indexing thread's heap grow to three
// or four times what it held live (100 MB live, 300-400 MB of heap) before collecting; the cap
// makes it collect sooner, at a small cost in time. Messages are typed in indexJob.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { Engine } from './engine';
import type { IndexJobData, IndexJobReply, IndexJobRequest } from './indexJob';

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('indexWorker must run in a worker thread');
  const { engine: options, refresh } = workerData as IndexJobData;
  const abort = new AbortController();
  port.on('message', (m: IndexJobRequest) => {
    if (m.type === 'abort') abort.abort();
  });
  const send = (m: IndexJobReply) => port.postMessage(m);
  // This thread is the job: it must not hand the job to yet another thread.
  const engine = new Engine({ ...options, indexWorkerScript: undefined });
  try {
    const report = await engine.refresh({ ...refresh, signal: abort.signal, onProgress: (progress) => send({ type: 'progress', progress }) });
    send({ type: 'done', report });
  } catch (e) {
    send({ type: 'failed', aborted: abort.signal.aborted, name: e instanceof Error ? e.name : 'Error', message: e instanceof Error ? e.message : String(e) });
  } finally {
    await engine.close();
    port.close();
  }
}

void main();
