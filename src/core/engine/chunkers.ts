// Who chunks for a refresh: worker threads for real jobs, this thread for a few saved files
// (starting workers and loading grammars in each costs more than chunking a handful of files).
// Owns both pools' lifetimes, so the engine and the index thread share one policy.
import { availableParallelism } from 'node:os';
import type { ChunkingPolicy } from '../chunking/policy';
import type { ChunkPool, JobListener } from '../chunking/pool';
import type { ChunkStrategy, Diagnostic, FileChunks } from '../types';
import type { Chunker } from './indexer';

/** Jobs smaller than this are chunked in-process even when a worker script is available. */
const IN_PROCESS_BYTES = 256 * 1024;

export interface ChunkersOptions {
  grammarsDir: string;
  /** Chunk worker entry; without it chunking runs in this thread. */
  workerScript?: string;
  /** Worker threads (default: one per core; 0: this thread only). */
  workers?: number;
  policy: ChunkingPolicy;
  strategy: ChunkStrategy;
}

export class Chunkers {
  private threadPool?: Promise<ChunkPool>;
  private localPool?: Promise<ChunkPool>;
  private readonly warmLanguages = new Set<string>();
  /** Jobs on the worker threads not yet answered. */
  private threadJobs = 0;
  /** What thread pools let go reported, until a refresh's report takes it. */
  private readonly releasedDiagnostics: Diagnostic[] = [];

  constructor(private readonly options: ChunkersOptions) {}

  chunker(): Chunker {
    return {
      chunk: async (docs, _signal, listener) => {
        const bytes = docs.reduce((n, d) => n + d.text.length, 0);
        const threads = this.options.workerScript && this.options.workers !== 0 && (this.threadPool || bytes > IN_PROCESS_BYTES);
        // Only the job that starts the threads reports start-up, with the steps they finish: a
        // job that finds them started (or still starting, for the job before it) reports none.
        const startup = threads && !this.threadPool && listener?.startup ? new Startup(this.threadCount(), new Set(docs.map((d) => d.language)).size, listener.startup) : undefined;
        if (threads) this.threadJobs++;
        try {
          const pool = threads ? await (this.threadPool ??= this.createPool(this.options.workers, startup)) : await this.local();
          if (!listener) return await pool.chunk(docs);
          // File by file, so a refresh's progress moves while a batch is being chunked.
          const results: FileChunks[] = [];
          const jobListener: JobListener = { partial: listener.partial && ((i, f) => listener.partial?.(i, f)), loaded: startup && (() => startup.step()) };
          for await (const r of pool.stream(docs, jobListener)) {
            results.push(r);
            listener.file(results.length - 1);
          }
          return results;
        } finally {
          if (threads) this.threadJobs--;
        }
      },
      finished: async () => {
        if (this.threadJobs === 0) await this.releaseThreads();
      },
    };
  }

  private threadCount(): number {
    return this.options.workers ?? availableParallelism();
  }

  /**
   * Loads the grammars of `samples` (one path per language) in this thread and parses a line
   * of each, so the next save does not wait for V8 to optimise a freshly loaded parser.
   */
  async warm(samples: ReadonlyArray<{ path: string; language: string }>): Promise<void> {
    if (this.options.strategy !== 'ast') return;
    const cold = samples.filter((s) => !this.warmLanguages.has(s.language));
    if (cold.length === 0) return;
    const pool = await this.local();
    await pool.chunk(cold.map((s) => ({ path: s.path, text: '\n', size: 1, mtimeMs: 0, hash: '', language: s.language })));
    for (const s of cold) this.warmLanguages.add(s.language);
  }

  /**
   * Problems the pools met (a worker that would not start, a grammar that would not load); those
   * of threads already let go are given once, to the refresh that used them.
   */
  async diagnostics(): Promise<Diagnostic[]> {
    const found: Diagnostic[] = this.releasedDiagnostics.splice(0);
    for (const p of [this.threadPool, this.localPool]) for (const d of (p ? await p : undefined)?.diagnostics ?? []) found.push(d);
    return found;
  }

  /**
   * Lets the worker threads go: they keep the wasm memory of the largest file they parsed
   * (hundreds of MB after a cold index). A later big job starts new ones.
   */
  async releaseThreads(): Promise<void> {
    const pending = this.threadPool;
    this.threadPool = undefined;
    const pool = await pending?.catch(() => undefined);
    if (!pool) return;
    for (const d of pool.diagnostics) if (!this.releasedDiagnostics.some((x) => x.code === d.code && x.message === d.message)) this.releasedDiagnostics.push(d);
    await pool.close();
  }

  async close(): Promise<void> {
    const pools = [this.threadPool, this.localPool];
    this.threadPool = this.localPool = undefined;
    await Promise.all(pools.map(async (p) => (await p?.catch(() => undefined))?.close()));
  }

  private local(): Promise<ChunkPool> {
    return (this.localPool ??= this.createPool(0));
  }

  private async createPool(workers: number | undefined, startup?: Startup): Promise<ChunkPool> {
    const { ChunkPool } = await import('../chunking/pool');
    return ChunkPool.create({
      workerScript: this.options.workerScript ?? '',
      grammarsDir: this.options.grammarsDir,
      workers,
      policy: this.options.policy,
      strategy: this.options.strategy,
      // Worker threads also analyse chunks for the index, so this thread only appends postings.
      analyze: true,
      onWorkerReady: startup && (() => startup.step()),
    });
  }
}

/**
 * The steps of starting the worker threads for a first job, as they finish: each thread
 * started, then each of the job's languages loaded in each thread (grammars are most of it).
 */
class Startup {
  private done = 0;
  private readonly total: number;

  constructor(threads: number, languages: number, private readonly report: (done: number, total: number) => void) {
    this.total = threads * (1 + languages);
    report(0, this.total);
  }

  step(): void {
    this.done = Math.min(this.total, this.done + 1);
    this.report(this.done, this.total);
  }
}
