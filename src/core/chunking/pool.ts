// Chunks many documents on worker threads. Work goes out in batches sized by bytes (not by
// file count) so one worker is not left with all the big files; results come back per file
// and are handed out in input order. A worker that dies (a wasm abort on a pathological file)
// costs exactly one file: that file (named by the worker's shared progress cells) gets line
// chunks and a diagnostic, the rest of its batch is re-queued, and the worker is replaced.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ChunkStrategy, Diagnostic, FileChunks, SourceDocument } from '../types';
import { createAstChunker } from './astLoader';
import { timingsBuffer } from '../timings';
import { chunkDocument, errorMessage, lineChunks, type ChunkContext } from './chunkFile';
import type { ChunkingPolicy } from './policy';
import { fromWire, IDLE, PARTIAL_MIN_CHARS, PROGRESS_BATCH, PROGRESS_CELLS, PROGRESS_FILE, type BatchMessage, type FromWorker, type WireFileChunks, type WorkerInit } from './protocol';

export interface ChunkPoolOptions {
  /** The worker entry: `dist/chunkWorker.js` in bundles, `out/src/core/chunking/worker.js` under tsc. */
  workerScript: string;
  grammarsDir: string;
  /** Worker threads; 0 chunks in the calling thread. Default: os.availableParallelism(). */
  workers?: number;
  policy: ChunkingPolicy;
  strategy: ChunkStrategy;
  /** Benchmark baseline only: workers parse each file with tree-sitter and return no chunks. */
  parseOnly?: boolean;
  /** Attach each file's index analysis (FileChunks.analysis), computed where the chunking runs. */
  analyze?: boolean;
  /** Called as each worker thread has started (a refresh shows start-up as progress). */
  onWorkerReady?: () => void;
}

/** What a stream's caller may hear while its documents are chunked, besides the results. */
export interface JobListener {
  /** A worker has done `fraction` (0-1) of `docs[index]`'s work; sent for big files only. */
  partial?(index: number, fraction: number): void;
  /** A worker loaded the grammars for one of the job's languages. */
  loaded?(language: string): void;
}

/** Batches aim at this share of a job's bytes per worker, so the last batches finish close together. */
const BATCHES_PER_WORKER = 8;
/**
 * Batches a worker holds at once: the next one is already there when it finishes one, so a
 * busy main thread (a major GC, a segment being built) does not leave it waiting for work.
 */
const IN_FLIGHT_PER_WORKER = 2;
const MIN_BATCH_BYTES = 32 * 1024;
const MAX_BATCH_BYTES = 1024 * 1024;

/**
 * A worker's JS heap cap. A worker holds one batch and one file's chunks at a time (tens of MB
 * live), but left uncapped V8 lets its heap grow to several hundred MB before collecting; two
 * such workers were half the peak RSS of a cold index. A file that needs more dies alone and
 * gets line chunks, like any other worker crash.
 */
const WORKER_HEAP_MB = 96;

export abstract class ChunkPool {
  /** Pool-wide problems, e.g. `ast-unavailable` when tree-sitter could not be loaded. */
  readonly diagnostics: Diagnostic[] = [];

  static async create(options: ChunkPoolOptions): Promise<ChunkPool> {
    const workers = options.workers ?? availableParallelism();
    if (!Number.isInteger(workers) || workers < 0) throw new RangeError(`workers must be a non-negative integer, got ${workers}`);
    return workers === 0 ? InProcessPool.start(options) : ThreadPool.start(options, workers);
  }

  /** Chunks `docs`; results are in input order. */
  async chunk(docs: readonly SourceDocument[], listener?: JobListener): Promise<FileChunks[]> {
    const results: FileChunks[] = [];
    for await (const r of this.stream(docs, listener)) results.push(r);
    return results;
  }

  /** Yields each document's chunks in input order, as soon as that document (and all before it) is done. */
  abstract stream(docs: readonly SourceDocument[], listener?: JobListener): AsyncGenerator<FileChunks, void, undefined>;

  abstract close(): Promise<void>;

  protected noteAstError(astError: string | undefined): void {
    if (astError === undefined || this.diagnostics.some((d) => d.code === 'ast-unavailable')) return;
    this.diagnostics.push({ code: 'ast-unavailable', message: `${astError}; chunking by lines`, severity: 'warning' });
  }
}

/** `workers: 0`: the same chunking, sequentially in the calling thread. */
class InProcessPool extends ChunkPool {
  private closed = false;

  private constructor(private readonly ctx: ChunkContext) {
    super();
  }

  static async start(options: ChunkPoolOptions): Promise<InProcessPool> {
    const ctx: ChunkContext = { policy: options.policy, strategy: options.strategy };
    let astError: string | undefined;
    if (options.strategy === 'ast') {
      try {
        ctx.ast = await createAstChunker(options.grammarsDir);
      } catch (e) {
        astError = errorMessage(e);
      }
    }
    const pool = new InProcessPool(ctx);
    pool.noteAstError(astError);
    return pool;
  }

  async *stream(docs: readonly SourceDocument[], listener?: JobListener): AsyncGenerator<FileChunks, void, undefined> {
    await this.ctx.ast?.prepare(languagesOf(docs));
    for (let i = 0; i < docs.length; i++) {
      if (this.closed) throw new Error('the chunk pool was closed');
      const doc = docs[i] as SourceDocument;
      const partial = listener?.partial;
      yield await chunkDocument(doc, this.ctx, partial && doc.text.length >= PARTIAL_MIN_CHARS ? (f) => partial(i, f) : undefined);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.ctx.ast?.dispose();
  }
}

/** One stream() call: its documents and the results received so far. */
class Job {
  readonly results: Array<FileChunks | undefined>;
  private wake: (() => void) | undefined;
  failure: Error | undefined;

  /** Every language among the documents, for the workers to load their grammars first. */
  readonly languages: readonly string[];

  constructor(
    readonly docs: readonly SourceDocument[],
    readonly listener: JobListener | undefined,
  ) {
    this.results = new Array<FileChunks | undefined>(docs.length);
    this.languages = languagesOf(docs);
  }

  settle(index: number, result: FileChunks): void {
    this.results[index] = result;
    this.notify();
  }

  fail(error: Error): void {
    this.failure = error;
    this.notify();
  }

  /** Resolves at the next settle or failure. */
  changed(): Promise<void> {
    return new Promise((resolve) => (this.wake = resolve));
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

interface Batch {
  id: number;
  job: Job;
  /** Positions in job.docs, in the order the worker will answer them. */
  indices: number[];
}

interface Slot {
  worker: Worker;
  ready: boolean;
  /** Batches sent and not yet fully answered, oldest first (the worker answers them in order). */
  inFlight: Batch[];
  /** How many files of `inFlight[0]` have been answered. */
  answered: number;
  /** The worker's progress cells (protocol.ts): which file it was on when it died. */
  progress: Int32Array;
  /** Why the worker died, from its 'error' event, for the diagnostic. */
  lastError?: string;
}

class ThreadPool extends ChunkPool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Batch[] = [];
  private readonly jobs = new Set<Job>();
  private nextBatchId = 0;
  private closing = false;
  private lastStartError: string | undefined;

  private constructor(private readonly options: ChunkPoolOptions, private readonly size: number) {
    super();
  }

  static async start(options: ChunkPoolOptions, size: number): Promise<ThreadPool> {
    const pool = new ThreadPool(options, size);
    try {
      await Promise.all(Array.from({ length: size }, () => pool.spawn()));
    } catch (e) {
      await pool.close();
      throw e;
    }
    return pool;
  }

  async *stream(docs: readonly SourceDocument[], listener?: JobListener): AsyncGenerator<FileChunks, void, undefined> {
    if (this.closing) throw new Error('the chunk pool is closed');
    const job = new Job(docs, listener);
    this.jobs.add(job);
    for (const indices of batchesOf(docs, this.size)) this.queue.push({ id: this.nextBatchId++, job, indices });
    this.dispatch();
    try {
      for (let next = 0; next < docs.length; next++) {
        while (job.results[next] === undefined) {
          if (job.failure) throw job.failure;
          await job.changed();
        }
        yield job.results[next] as FileChunks;
        job.results[next] = undefined; // release memory as soon as the consumer has it
      }
    } finally {
      this.jobs.delete(job);
      // A consumer that stops early (closed pipe) must not leave its batches queued.
      for (let i = this.queue.length - 1; i >= 0; i--) if ((this.queue[i] as Batch).job === job) this.queue.splice(i, 1);
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    this.queue.length = 0;
    for (const job of this.jobs) job.fail(new Error('the chunk pool was closed'));
    const workers = [...this.slots].map((s) => s.worker);
    this.slots.clear();
    await Promise.all(workers.map((w) => w.terminate()));
  }

  /** Starts a worker; resolves once it is ready, rejects if it dies first. */
  private spawn(): Promise<void> {
    const progress = new Int32Array(new SharedArrayBuffer(PROGRESS_CELLS * Int32Array.BYTES_PER_ELEMENT)).fill(IDLE);
    const init: WorkerInit = {
      grammarsDir: this.options.grammarsDir,
      policy: this.options.policy,
      strategy: this.options.strategy,
      parseOnly: this.options.parseOnly,
      analyze: this.options.analyze,
      progress,
      timings: timingsBuffer(),
    };
    // Anything a worker prints goes to stderr: stdout may be a JSON-lines stream.
    const worker = new Worker(this.options.workerScript, { workerData: init, stdout: true, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    worker.stdout.on('data', (d: Buffer) => process.stderr.write(d));
    const slot: Slot = { worker, ready: false, inFlight: [], answered: 0, progress };
    this.slots.add(slot);
    return new Promise((resolve, reject) => {
      slot.worker.on('message', (m: FromWorker) => {
        if (m.type === 'ready') {
          slot.ready = true;
          this.noteAstError(m.astError);
          this.options.onWorkerReady?.();
          resolve();
          this.dispatch();
        } else if (m.type === 'files') {
          this.onFiles(slot, m.batch, m.first, m.results);
        } else {
          // Progress of the batch under way (the worker answers its batches in order).
          const batch = slot.inFlight[0];
          if (!batch || batch.id !== m.batch) return;
          if (m.type === 'working') batch.job.listener?.partial?.(batch.indices[m.index] as number, m.fraction);
          else batch.job.listener?.loaded?.(m.language);
        }
      });
      slot.worker.on('error', (e) => (slot.lastError = errorMessage(e)));
      slot.worker.on('exit', (code) => {
        if (!slot.ready) reject(new Error(`chunk worker failed to start (exit code ${code})${slot.lastError ? `: ${slot.lastError}` : ''}`));
        this.onExit(slot, code);
      });
    });
  }

  private dispatch(): void {
    if (this.slots.size === 0 && !this.closing) {
      // Every worker died while (re)starting: chunk what is left by lines here rather than never.
      this.drainByLines(`no chunk worker could be started${this.lastStartError ? ` (${this.lastStartError})` : ''}`);
      return;
    }
    // Round by round, so every worker has a batch before any gets a second.
    for (let depth = 1; depth <= IN_FLIGHT_PER_WORKER; depth++) {
      for (const slot of this.slots) {
        if (!slot.ready || slot.inFlight.length >= depth) continue;
        const batch = this.queue.shift();
        if (!batch) return;
        slot.inFlight.push(batch);
        const message: BatchMessage = { type: 'batch', batch: batch.id, docs: batch.indices.map((i) => batch.job.docs[i] as SourceDocument), languages: batch.job.languages };
        slot.worker.postMessage(message);
      }
    }
  }

  private onFiles(slot: Slot, batchId: number, first: number, results: readonly WireFileChunks[]): void {
    const batch = slot.inFlight[0];
    if (!batch || batch.id !== batchId) return;
    const docs = batch.job.docs;
    for (let k = 0; k < results.length; k++) {
      const docIndex = batch.indices[first + k] as number;
      batch.job.settle(docIndex, fromWire(docs[docIndex] as SourceDocument, results[k] as WireFileChunks));
    }
    slot.answered = first + results.length;
    if (slot.answered === batch.indices.length) {
      slot.inFlight.shift();
      slot.answered = 0;
      this.dispatch();
    }
  }

  private onExit(slot: Slot, code: number): void {
    if (!this.slots.delete(slot) || this.closing) return;
    const [batch, ...sent] = slot.inFlight;
    if (batch) {
      // The culprit is the file it was on; files before it that were chunked but not yet sent
      // are chunked again. Dying between files (while sending) blames the first unanswered
      // file, as before replies were grouped, so a worker that keeps dying still gets through.
      const working = Atomics.load(slot.progress, PROGRESS_BATCH) === batch.id ? Atomics.load(slot.progress, PROGRESS_FILE) : IDLE;
      const culprit = working >= slot.answered ? working : slot.answered;
      const retry: number[] = [];
      for (let k = slot.answered; k < batch.indices.length; k++) {
        const docIndex = batch.indices[k] as number;
        if (k !== culprit) {
          retry.push(docIndex);
          continue;
        }
        const doc = batch.job.docs[docIndex] as SourceDocument;
        const reason = `the chunk worker died (exit code ${code}${slot.lastError ? `, ${slot.lastError}` : ''}) while chunking this file; used line chunks`;
        batch.job.settle(docIndex, lineChunks(doc, this.options.policy, { code: 'chunk-worker-crashed', message: reason, path: doc.path, severity: 'warning' }));
      }
      // The rest of its batch, then the batches sent after it, go back to the front in order.
      this.queue.unshift(...(retry.length > 0 ? [{ id: this.nextBatchId++, job: batch.job, indices: retry }, ...sent] : sent));
    }
    // A worker that died while starting is not replaced, or a broken install would respawn forever.
    if (slot.ready) this.spawn().catch(() => undefined);
    else this.lastStartError = slot.lastError ?? `exit code ${code}`;
    this.dispatch();
  }

  private drainByLines(reason: string): void {
    for (const batch of this.queue.splice(0)) {
      for (const i of batch.indices) {
        const doc = batch.job.docs[i] as SourceDocument;
        const diagnostic: Diagnostic = { code: 'chunk-worker-unavailable', message: `${reason}; used line chunks`, path: doc.path, severity: 'warning' };
        batch.job.settle(i, lineChunks(doc, this.options.policy, diagnostic));
      }
    }
  }
}

/** The distinct languages of `docs`, in order of first appearance. */
export function languagesOf(docs: readonly SourceDocument[]): string[] {
  const seen = new Set<string>();
  for (const d of docs) seen.add(d.language);
  return [...seen];
}

/**
 * Splits documents into batches of consecutive files holding about an equal share of bytes:
 * a 1 MB file is a batch alone, a thousand small files share a few.
 */
export function batchesOf(docs: readonly SourceDocument[], workers: number): number[][] {
  const total = docs.reduce((sum, d) => sum + d.text.length, 0);
  const target = Math.min(MAX_BATCH_BYTES, Math.max(MIN_BATCH_BYTES, Math.ceil(total / (workers * BATCHES_PER_WORKER))));
  const batches: number[][] = [];
  let current: number[] = [];
  let bytes = 0;
  docs.forEach((doc, i) => {
    if (current.length > 0 && bytes + doc.text.length > target) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(i);
    bytes += doc.text.length;
  });
  if (current.length > 0) batches.push(current);
  return batches;
}
