// Runs a refresh on an index worker thread (indexWorker.ts) and answers like refreshIndex: a
// whole-tree build, or a big incremental refresh of a long-lived host, whose reading, segment
// building, merging and fsyncs then stay off the thread that answers queries. The messages both
// sides exchange are typed here, once.
import { Worker } from 'node:worker_threads';


import { breakLockOfDeadThread } from '../store/lock';
import { timingsBuffer } from '../timings';
import type { EngineOptions, RefreshOptions, RefreshProgress, RefreshReport } from '../api';

/** What the index worker is started with: plain data only (no callbacks, no signal). */
export interface IndexJobData {
  engine: Omit<EngineOptions, 'onLockWait' | 'indexWorkerScript'>;
  refresh: Pick<RefreshOptions, 'rebuild' | 'only' | 'commitEveryFiles' | 'deadlineAtMs' | 'waitForWriter'>;
  /** Send `pending` replies (the caller's onPending). */
  reportPending?: boolean;
  /** The stage-time buffer of the thread that started the job (`cairn index --timings`). */
  timings?: SharedArrayBuffer;
}

export type IndexJobRequest = { type: 'abort' };

export type IndexJobReply =
  | { type: 'progress'; progress: RefreshProgress }
  | { type: 'pending'; paths: readonly string[] }
  | { type: 'done'; report: RefreshReport }
  | { type: 'failed'; aborted: boolean; name: string; message: string };

/** Thrown when the index thread ends without an answer (for example, out of memory). */
export class IndexWorkerDied extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IndexWorkerDied';
  }
}

/**
 * Runs `refresh` on a new thread with a `heapMb` cap. Rejects with the job's own error (name and
 * message kept), with `signal.reason` when aborted, or with IndexWorkerDied when the thread dies.
 */
export function runIndexJob(script: string, heapMb: number, data: IndexJobData, options: RefreshOptions): Promise<RefreshReport> {
  const signal = options.signal;
  signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, { workerData: { ...data, timings: timingsBuffer() } satisfies IndexJobData, name: 'cairn-index', resourceLimits: { maxOldGenerationSizeMb: heapMb } });
    let settled = false;
    let lastError: string | undefined;
    const onAbort = () => worker.postMessage({ type: 'abort' } satisfies IndexJobRequest);
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      fn();
    };
    worker.on('message', (m: IndexJobReply) => {
      if (m.type === 'progress') options.onProgress?.(m.progress);
      else if (m.type === 'pending') options.onPending?.(m.paths);
      else if (m.type === 'done') settle(() => resolve(m.report));
      else {
        settle(() => {
          if (m.aborted && signal?.aborted) reject(signal.reason);
          else reject(Object.assign(new Error(m.message), { name: m.name }));
        });
      }
    });
    worker.on('error', (e) => (lastError = e.message));
    const thread = worker.threadId;
    // Exiting without an answer is dying (out of memory, a crash): its lock goes with it.
    worker.on('exit', (code) =>
      settle(() => {
        breakLockOfDeadThread(data.engine.storeDir, thread);
        reject(new IndexWorkerDied(`the index thread stopped (exit code ${code})${lastError ? `: ${lastError}` : ''}`));
      }),
    );
  });
}
