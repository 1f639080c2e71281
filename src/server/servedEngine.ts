// The engine a command reads through when `cairn serve` runs it: the host's warm engine, with
// the host's refresh queue (kept current by the watcher) deciding freshness instead of a
// whole-tree check per command. A query waits for pending work at most QUERY_WAIT_MS, the
// watcher's settle included; a refresh that is still running then becomes a warning, the files
// it has still to index a count on the answer and `stale` on their hits, and a refresh that
// failed a warning, as the in-process path says when it answers from the index as it is.
import * as os from 'node:os';
import * as path from 'node:path';
import { type EngineHost, describeHolder, processAlive, QUERY_WAIT_MS } from '../core/engineApi';
import { markPending, refreshingFiles, type Diagnostic, type FreshnessState, type PackOptions, type ReferenceOptions, type RefreshMode, type SearchOptions, type SymbolOptions } from '../core/api';
import { readRegularSync } from '../core/clientApi';
import type { QueryEngine, ServedBy } from '../command/context';

export interface ServedEngineOptions {
  host: EngineHost;
  key: string;
  /** Waits for file events still on their way from the watcher (watch.ts). */
  settle: () => Promise<void>;
  startedAtMs: number;
  /** Warnings about how the server keeps the index fresh (no watcher), shown by `cairn status`. */
  warnings?: () => Diagnostic[];
}

type WithRefresh = { refresh?: RefreshMode };

export class ServedEngine implements QueryEngine {
  constructor(private readonly o: ServedEngineOptions) {}

  get served(): ServedBy {
    return { pid: process.pid, startedAtMs: this.o.startedAtMs, rssBytes: process.memoryUsage.rss(), freshness: this.o.host.queue(this.o.key).describe() };
  }

  async search(query: string, options: SearchOptions & WithRefresh = {}): ReturnType<QueryEngine['search']> {
    const { warnings, pending } = await this.fresh(options.refresh);
    return withWarnings(markPending(await this.o.host.search(this.o.key, query, options), pending), warnings);
  }

  async searchFiles(query: string, options: SearchOptions & WithRefresh = {}): ReturnType<QueryEngine['searchFiles']> {
    const { warnings, pending } = await this.fresh(options.refresh);
    return withWarnings(markPending(await this.o.host.searchFiles(this.o.key, query, options), pending), warnings);
  }

  async findSymbol(name: string, options: SymbolOptions & WithRefresh = {}): ReturnType<QueryEngine['findSymbol']> {
    const { warnings, pending } = await this.fresh(options.refresh);
    return withWarnings(markPending(await this.o.host.findSymbol(this.o.key, name, options), pending), warnings);
  }

  async references(name: string, options: ReferenceOptions & WithRefresh = {}): ReturnType<QueryEngine['references']> {
    const { warnings, pending } = await this.fresh(options.refresh);
    return withWarnings(markPending(await this.o.host.references(this.o.key, name, options), pending), warnings);
  }

  async buildPack(task: string, options: PackOptions & WithRefresh): ReturnType<QueryEngine['buildPack']> {
    const { warnings } = await this.fresh(options.refresh);
    const pack = await this.o.host.engine(this.o.key).buildPack(task, { ...options, refresh: 'never' });
    return warnings.length ? { ...pack, warnings: [...pack.warnings, ...warnings.map((d) => d.message)] } : pack;
  }

  status(): ReturnType<QueryEngine['status']> {
    const status = this.o.host.status(this.o.key);
    const warnings = this.o.warnings?.() ?? [];
    return warnings.length ? { ...status, diagnostics: [...warnings, ...status.diagnostics] } : status;
  }

  /** The host's engine stays open for the next client. */
  async close(): Promise<void> {}

  /**
   * Brings the index up to date as `mode` asks, within the policy's bound; what kept it from
   * that, as diagnostics, and the files still pending.
   */
  private async fresh(mode: RefreshMode = 'always'): Promise<{ warnings: Diagnostic[]; pending: string[] }> {
    const none = { warnings: [], pending: [] };
    if (mode === 'never') return none;
    if (mode === 'if-missing' && this.o.host.state(this.o.key).status.exists) return none;
    // The watcher's settle counts against the query's one bounded wait.
    const startedAt = Date.now();
    await this.o.settle();
    const storeDir = this.o.host.state(this.o.key).status.storeDir;
    let done = false;
    const fresh = this.o.host.ensureFresh(this.o.key, { waitMs: QUERY_WAIT_MS - (Date.now() - startedAt) }).finally(() => (done = true));
    // As in-process, a query never queues behind another process's write: it answers from the
    // index as it is at once (the refresh waits for the lock in the background).
    const blocked = (async (): Promise<string | undefined> => {
      while (!done) {
        const holder = otherWriter(readLock(storeDir));
        if (holder) return holder;
        await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
      }
      return undefined;
    })();
    const first = await Promise.race([fresh, blocked]);
    if (typeof first === 'string') return { warnings: [skipped(`another refresh is running (${first})`, this.lastRefreshed())], pending: [] };
    const state = first ?? (await fresh);
    return { warnings: freshnessWarnings(state, this.lastError(), this.lastRefreshed()), pending: state.kind === 'refreshing' ? state.pending : [] };
  }

  /** The last refresh's failure, while no refresh has succeeded since (a watcher's path refresh included). */
  private lastError(): string | undefined {
    return this.o.host.queue(this.o.key).state().error;
  }

  private lastRefreshed(): string | undefined {
    return this.o.host.state(this.o.key).status.updatedAt;
  }
}

/** How often a query looks at the store's lock while its refresh has not finished. */
const LOCK_POLL_MS = 25;

interface LockFile {
  pid: number;
  host: string;
  acquiredAt: string;
  command?: string;
  thread?: number;
  token: string;
}

function readLock(storeDir: string): LockFile | undefined {
  try {
    // Regular files only, opened non-blocking: a FIFO named write.lock would stop the server's event loop.
    const info = JSON.parse(readRegularSync(path.join(storeDir, 'write.lock')).toString('utf8')) as LockFile;
    return typeof info.pid === 'number' && typeof info.host === 'string' ? info : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Who holds the lock, when it is a live process other than this one (this server's own refresh
 * is what the query waits for); undefined otherwise, also for a holder that died (the refresh
 * breaks that lock and goes on).
 */
export function otherWriter(lock: LockFile | undefined, ownPid = process.pid, alive: (pid: number) => boolean = processAlive): string | undefined {
  if (!lock || lock.pid === ownPid) return undefined;
  if (lock.host === os.hostname() && !alive(lock.pid)) return undefined;
  return describeHolder(lock);
}

/** Codes of a store that cannot be written, said as in-process (engine.ts refreshBlocker). */
const UNWRITABLE = /\b(EACCES|EPERM|EROFS|ENOSPC|EDQUOT)\b/;

function skipped(reason: string, updatedAt: string | undefined): Diagnostic {
  const code = UNWRITABLE.exec(reason)?.[1];
  const why = code === undefined ? reason : code === 'ENOSPC' || code === 'EDQUOT' ? `the disk is full (${code})` : `the store cannot be written (${code})`;
  return { code: 'refresh-skipped', severity: 'warning', message: `answered from the index as it is (last refreshed ${updatedAt ?? 'never'}): ${why}` };
}

/**
 * What keeps an answer from being current, as the in-process path says it: a refresh still
 * running, one that failed now, or an earlier one that failed and was not followed by one that
 * succeeded (`lastError`: with a watcher, a query does not run a refresh of its own, so a store
 * that cannot be written must still be said).
 */
export function freshnessWarnings(state: FreshnessState, lastError?: string, updatedAt?: string): Diagnostic[] {
  if (state.kind === 'refreshing') {
    const n = state.pending.length;
    const message = n > 0
      ? `${refreshingFiles(n)}: answered from the index as it is, hits from those files marked stale; the next query sees more`
      : `answered from the index as it is: ${state.startedAgoMs >= 1000 ? `a refresh has been running for ${Math.round(state.startedAgoMs / 1000)}s` : 'files changed and a refresh is under way'}`;
    return [{ code: 'refreshing', severity: 'warning', message }];
  }
  if (state.kind === 'failed') return [skipped(state.message, updatedAt)];
  if (state.kind === 'refreshed') return state.report.diagnostics.filter((d) => d.severity !== 'info' || d.code === 'config-changed');
  const failure = lastError ?? state.lastFailure;
  return failure === undefined ? [] : [skipped(failure, updatedAt)];
}

function withWarnings<T extends { diagnostics: Diagnostic[] }>(response: T, warnings: Diagnostic[]): T {
  return warnings.length ? { ...response, diagnostics: [...warnings, ...response.diagnostics] } : response;
}
