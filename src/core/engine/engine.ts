// The engine facade every front end uses (CLI, MCP server, the extension's worker thread).
// It owns one store directory for one root. Locations (root, store, grammars, worker script)
// are always passed in; nothing here guesses a path or imports a host API.
import * as fs from 'node:fs';
import * as path from 'node:path';
// Indexing (discovery, chunk workers, grammars), the ripgrep provider and context packs load
// on first use: a one-shot `cairn search` on an up-to-date index never initialises them.
import type { Diagnostic } from '../types';
import { PastCommits } from '../history/commitLog';
import { prepared } from '../history/prepared';
import type { DiscoveryOptions } from '../discovery';
import { resolvePolicy, type ChunkingPolicy } from '../chunking/policy';
import type { FieldName, FieldParams } from '../index/fields';
import { DEFAULT_FIELD_PARAMS } from '../index/fields';
import { corruptionDiagnostic, IndexStore, StoreCorruptError, type Snapshot } from '../store/store';
import { compareHits, DEFAULT_RANKING, round, type RankingParams } from '../search/search';
import type { FileSearchResponse, IndexFreshness, ReferenceOptions, ReferencesResponse, SearchOptions, SearchResponse, SearchResponseMeta, SymbolOptions, SymbolResponse } from '../search/types';
import { findReferences } from '../search/refs';
import { Chunkers } from './chunkers';
import { refreshHere } from './localRefresh';
import { bigRefreshInParts, type IndexerRunOptions, RefreshHandedOff, wholeRefreshInParts } from './refreshHandOff';
import { refreshingFiles } from './pendingFiles';
import { COMMIT_EVERY_FILES, SMALL_REFRESH_FILES } from './refreshQueue';
import type { ContextPack, GuidanceEntry, PackOptions } from '../pack/types';
import { CorruptDataError } from '../index/varint';
import { LockHeldError, LockTimeoutError, StoreLocationError } from '../store/lock';
import { parseDocid } from '../chunking/ids';
import { boundQuery } from '../search/query';
import { partialNote } from '../search/allWords';
import type { EngineOptions, ExportedChunk, IndexStatus, RefreshMode, RefreshOptions, RefreshReport, Span } from '../api';
import { importGraph, openView, viewKey, type View } from './view';
import { warmChunker, warmIndex, warmView } from './warm';
import { chunkAnswer, fileAnswer, liftFilters, type SearchSetting } from './searchAnswers';
import { boundName, closestNote, referenceSources, symbolResults } from './symbolAnswers';
import { packContext } from './packContext';
import { indexStatus } from './indexStatus';
import { exportView } from './exportChunks';

/**
 * The index thread's default heap cap: room for the segment being built and one batch of
 * files, including huge ones, while keeping V8 from growing the heap to several times its live
 * data (docs/index-design.md, Measurements).
 */
const DEFAULT_INDEX_HEAP_MB = 192;

export class Engine {
  readonly root: string;
  readonly store: IndexStore;
  private readonly policy: ChunkingPolicy;
  private readonly ranking: RankingParams;
  private readonly fieldParams: Record<FieldName, FieldParams>;
  private readonly chunkers: Chunkers;
  private refreshesInFlight = 0;
  private view?: View;
  private lastRefreshGeneration = -1;
  /** Files the last whole refresh before a query left at its budget (queryRefreshBudgetMs). */
  private leftBehind = 0;
  /** The root's repository's past commits, read once per HEAD. */
  private readonly pastCommits: PastCommits;

  constructor(private readonly options: EngineOptions) {
    this.root = path.resolve(options.root);
    this.store = new IndexStore(path.resolve(options.storeDir), this.root);
    this.pastCommits = new PastCommits(this.root, this.store.dir);
    this.policy = resolvePolicy(options.policy);
    this.ranking = { ...DEFAULT_RANKING, ...options.ranking };
    this.fieldParams = { ...DEFAULT_FIELD_PARAMS, ...options.fieldParams };
    this.chunkers = new Chunkers({ grammarsDir: options.grammarsDir, workerScript: options.workerScript, workers: options.workers, policy: this.policy, strategy: options.strategy ?? 'ast' });
    if (!fs.existsSync(this.root) || !fs.statSync(this.root).isDirectory()) {
      throw new Error(`root ${this.root} is not a directory`);
    }
  }

  /** Brings the index up to date (incrementally), or rebuilds it with `rebuild: true`. */
  async refresh(options: RefreshOptions = {}): Promise<RefreshReport> {
    this.refreshesInFlight++;
    const onLockWait = this.options.onLockWait;
    if (onLockWait) {
      const onProgress = options.onProgress;
      options = { ...options, onProgress: (p) => (p.phase === 'wait' ? onLockWait(p.message ?? 'waiting for another writer') : onProgress?.(p)) };
    }
    try {
      return await this.refreshOnce(options);
    } finally {
      // Saves are chunked in this thread anyway; worker threads go once no refresh needs them.
      if (--this.refreshesInFlight === 0) await this.chunkers.releaseThreads();
    }
  }

  /** True when there is an index to answer from (a query need not wait for a build). */
  hasIndex(): boolean {
    return this.store.exists();
  }

  private async refreshOnce(options: RefreshOptions): Promise<RefreshReport> {
    const script = this.options.indexWorkerScript;
    if (script && ((!options.only && this.buildsFromNothing(options)) || bigRefreshInParts(options))) return this.refreshOnThreadOrHere(script, options);
    if (script && wholeRefreshInParts(options)) return this.refreshHandingOff(script, options);
    return this.refreshHere(options);
  }

  /** On the index thread; here when that thread dies, saying why. */
  private async refreshOnThreadOrHere(script: string, options: RefreshOptions): Promise<RefreshReport> {
    const answer = await this.refreshOnIndexThread(script, options);
    if ('report' in answer) return answer.report;
    const report = await this.refreshHere(options);
    report.diagnostics.push(answer.died);
    return report;
  }

  /**
   * A whole-root refresh planned here, usually a few files; when it finds many changed, the
   * whole refresh runs again on the index thread, which plans it anew and commits in parts.
   */
  private async refreshHandingOff(script: string, options: RefreshOptions): Promise<RefreshReport> {
    try {
      return await this.refreshHere({ ...options, handOffAbove: SMALL_REFRESH_FILES });
    } catch (e) {
      if (!(e instanceof RefreshHandedOff)) throw e;
    }
    return this.refreshOnThreadOrHere(script, options);
  }

  private async refreshHere(options: IndexerRunOptions): Promise<RefreshReport> {
    const report = await refreshHere({ root: this.root, store: this.store, options: this.options, policy: this.policy, chunkers: this.chunkers }, options);
    this.lastRefreshGeneration = report.generation;
    return report;
  }

  /** True when a refresh will build the whole index: no usable store yet, or a rebuild. */
  private buildsFromNothing(options: RefreshOptions): boolean {
    if (options.rebuild) return true;
    try {
      return this.store.readManifest() === undefined;
    } catch {
      return true; // unreadable: the refresh discards it and starts over
    }
  }

  /**
   * Runs a whole-index build, or a big refresh in parts, on the index thread. When that thread
   * dies (out of memory under its cap), answers why, and the caller builds in this thread instead.
   */
  private async refreshOnIndexThread(script: string, options: RefreshOptions): Promise<{ report: RefreshReport } | { died: Diagnostic }> {
    const { runIndexJob, IndexWorkerDied } = await import('./indexJob');
    const { onLockWait: _told, indexWorkerScript: _script, ...plain } = this.options;
    try {
      const { rebuild, only, commitEveryFiles, deadlineAtMs, waitForWriter } = options;
      const refresh = { rebuild, only, commitEveryFiles, deadlineAtMs, waitForWriter };
      const report = await runIndexJob(script, this.options.indexHeapMb ?? DEFAULT_INDEX_HEAP_MB, { engine: { ...plain, root: this.root, storeDir: this.store.dir }, refresh, reportPending: options.onPending !== undefined }, options);
      this.lastRefreshGeneration = report.generation;
      return { report };
    } catch (e) {
      if (!(e instanceof IndexWorkerDied)) throw e;
      return { died: { code: 'index-thread-died', severity: 'warning', message: `${e.message}; the index was built on the calling thread instead` } };
    }
  }

  /**
   * Readies a long-lived host (the extension's engine thread, the MCP server) for its next save and
   * its next queries, to call once idle. Loads the grammars of the index's `count` most common
   * languages and parses a line of each: V8 optimises a freshly loaded parser in the background and
   * blocks this thread while it installs the result, about a second after first use and long enough
   * to stall whatever runs then. Then reads in the index sections queries would otherwise load
   * mid-query, builds what a task text's answer reads of the whole repository (warmView) and reads
   * the repository's past commits at its HEAD. Cheap once warm; never throws.
   */
  async warmUp(count = 3): Promise<void> {
    await warmChunker(this.store, this.chunkers, count);
    await this.warmIndex();
    // The repository's past commits (read by git in its own process) and what file search reads of them.
    await this.pastCommits.atHead().then(prepared).catch(() => undefined);
    // The view answers read (as currentView opens it, but never repairing a damaged store here).
    try {
      const snapshot = this.store.snapshot();
      if (!snapshot) return;
      const key = viewKey(snapshot);
      if (this.view?.key !== key) this.view = openView(key, snapshot, this.fieldParams, this.view);
      await warmView(this.store, this.view);
    } catch {
      // A damaged store is left for the next query to report and rebuild.
    }
  }

  /**
   * Reads in, segment by segment, the index sections queries of a long-lived host end up
   * reading whole anyway, and decodes its most common terms' postings into the cache they
   * would reach after a few queries (Segment.warmForQueries, warmPostings), so no query pays
   * for that. Yields between steps: a query asked meanwhile waits for at most one step.
   */
  async warmIndex(): Promise<void> {
    await warmIndex(this.store);
  }

  /**
   * Lets go of what queries, refreshes and warmUp decoded into memory (IndexStore.releaseCaches):
   * the next query reads what it needs again, as a process that just opened the index would.
   * The chunker stays, so a save still refreshes at once.
   */
  releaseCaches(): void {
    this.view = undefined;
    this.store.releaseCaches();
  }

  /**
   * The current read view. A missing index is built when `mode` allows; a corrupt or
   * old-format store is discarded and rebuilt, with a diagnostic, so the caller still gets an answer.
   */
  private async currentView(mode: RefreshMode, diagnostics: Diagnostic[]): Promise<{ view?: View; fresh: boolean }> {
    let fresh = false;
    if (mode === 'always') {
      const r = await this.refreshBeforeReading();
      if ('skipped' in r) diagnostics.push(r.skipped);
      else {
        diagnostics.push(...r.report.diagnostics.filter((d) => d.severity !== 'info' || d.code === 'config-changed'));
        const left = r.report.pending?.length ?? 0;
        if (left > 0) {
          diagnostics.push({ code: 'refreshing', severity: 'warning', message: `${refreshingFiles(left)}: answered from the index as it is, hits from those files marked stale; the next query sees more` });
        }
        fresh = left === 0;
      }
    }
    for (let attempt = 0; attempt < 2; attempt++) {
      let snapshot: Snapshot | undefined;
      try {
        snapshot = this.store.snapshot();
      } catch (e) {
        if (!(e instanceof StoreCorruptError)) throw e;
        diagnostics.push(corruptionDiagnostic(e));
        await this.refresh({ rebuild: true });
        fresh = true;
        continue;
      }
      if (!snapshot) {
        if (mode === 'never') return { fresh: false };
        const r = await this.refresh();
        diagnostics.push(...r.diagnostics.filter((d) => d.severity === 'error'));
        fresh = true;
        continue;
      }
      const key = viewKey(snapshot);
      if (this.view?.key !== key) this.view = openView(key, snapshot, this.fieldParams, this.view);
      return { view: this.view, fresh: this.leftBehind === 0 && (fresh || this.lastRefreshGeneration === snapshot.manifest.generation) };
    }
    throw new Error('the index could not be rebuilt');
  }

  /**
   * The refresh a query asks for first. With an index to answer from, it never waits for
   * another writer and never fails the query: a held lock, a read-only store or a full disk
   * leaves the index as it is, with a warning that says why.
   */
  private async refreshBeforeReading(only?: string[]): Promise<{ report: RefreshReport } | { skipped: Diagnostic }> {
    const answerable = this.store.exists();
    // With an index to answer from, a whole refresh stops at the budget and leaves the rest (the
    // files of stale hits, `only`, are few: refreshed whole).
    const budget = !only && answerable ? this.options.queryRefreshBudgetMs : undefined;
    try {
      const report = await this.refresh({
        ...(only ? { only } : {}),
        waitForWriter: !answerable,
        ...(budget !== undefined ? { deadlineAtMs: Date.now() + budget, commitEveryFiles: COMMIT_EVERY_FILES } : {}),
      });
      if (!only) this.leftBehind = report.pending?.length ?? 0;
      return { report };
    } catch (e) {
      const reason = refreshBlocker(e);
      if (!answerable || reason === undefined) throw e;
      let asOf = '';
      try {
        asOf = ` (last refreshed ${this.store.readManifest()?.updatedAt ?? 'never'})`;
      } catch {
        // a damaged manifest is reported by the read that follows
      }
      return { skipped: { code: 'refresh-skipped', severity: 'warning', message: `answered from the index as it is${asOf}: ${reason}` } };
    }
  }

  /**
   * Reads from a view. Segments are read on demand, so damage can surface only now: the index
   * is then rebuilt once, with a diagnostic, and the read repeated on the new view.
   */
  private async recovering<T>(view: View, diagnostics: Diagnostic[], read: (v: View) => T | Promise<T>): Promise<{ view: View; rebuilt: boolean; value: T }> {
    try {
      return { view, rebuilt: false, value: await read(view) };
    } catch (e) {
      if (!(e instanceof CorruptDataError)) throw e;
      diagnostics.push(corruptionDiagnostic(new StoreCorruptError(e.message)));
      await this.refresh({ rebuild: true });
      const rebuilt = (await this.currentView('never', diagnostics)).view;
      if (!rebuilt) throw new Error('the index could not be rebuilt');
      return { view: rebuilt, rebuilt: true, value: await read(rebuilt) };
    }
  }

  private freshness(view: View | undefined, fresh: boolean): IndexFreshness {
    const m = view?.snapshot.manifest;
    return { files: m?.files ?? 0, chunks: m?.chunks ?? 0, fresh, generation: m?.generation ?? 0, ...(this.leftBehind > 0 ? { pending: this.leftBehind } : {}) };
  }

  async search(typed: string, given: SearchOptions & { refresh?: RefreshMode; refreshStale?: boolean; signal?: AbortSignal } = {}): Promise<SearchResponse> {
    const { query, options } = liftFilters(typed, given);
    const { answer, query: asked, ...rest } = await this.freshAnswer(query, options, (v, q) => chunkAnswer(this.searchSetting, v, q, options), (a) => a.hits);
    return { query: asked, results: answer?.hits ?? [], ...rest };
  }

  /**
   * Files ranked as files (`groupBy: 'file'`): each file scored by the evidence of its matching
   * chunks, with its best spans; `limit` and `offset` count files.
   */
  async searchFiles(typed: string, given: SearchOptions & { refresh?: RefreshMode; refreshStale?: boolean; signal?: AbortSignal } = {}): Promise<FileSearchResponse> {
    const { query, options } = liftFilters(typed, given);
    const { answer, query: asked, ...rest } = await this.freshAnswer(query, options, (v, q) => fileAnswer(this.searchSetting, v, q, options, query), (a) => a.files);
    return { query: asked, files: answer?.files ?? [], ...rest };
  }

  /**
   * An answer from the current view (recovering from a damaged store once), asked again after
   * refreshing the files of stale hits when `refreshStale`, with what every response carries.
   * The query asked is the bounded one (`boundQuery`), and the response says so.
   */
  private async freshAnswer<A extends { total: number; totalIsLowerBound?: boolean; partialOnly?: { words: string[] }; warnings: string[]; diagnostics: Diagnostic[] }>(
    typed: string,
    options: { refresh?: RefreshMode; refreshStale?: boolean },
    askWith: (v: View, query: string) => Promise<A>,
    hitsOf: (a: A) => ReadonlyArray<{ stale?: boolean; path: string }>,
  ): Promise<SearchResponseMeta & { answer?: A }> {
    const started = performance.now();
    const { query, warning } = boundQuery(typed);
    const cut = warning ? [warning] : [];
    const ask = (v: View) => askWith(v, query);
    const diagnostics: Diagnostic[] = [];
    let { view, fresh } = await this.currentView(options.refresh ?? 'if-missing', diagnostics);
    if (!view) return { query, total: 0, tookMs: round(performance.now() - started), index: this.freshness(undefined, false), warnings: [...cut, 'no index yet'], diagnostics };
    const first = await this.recovering(view, diagnostics, ask);
    let answer = first.value;
    view = first.view;
    fresh ||= first.rebuilt;
    // Hits in files that changed since indexing: refresh just those files and ask again.
    const stale = [...new Set(hitsOf(answer).filter((h) => h.stale).map((h) => h.path))];
    if (options.refreshStale && stale.length > 0) {
      const r = await this.refreshBeforeReading(stale);
      if ('skipped' in r) diagnostics.push(r.skipped);
      else {
        ({ view, fresh } = await this.currentView('never', diagnostics));
        if (view) answer = await ask(view);
      }
    }
    return {
      query,
      answer,
      total: answer.total,
      ...(answer.totalIsLowerBound ? { totalIsLowerBound: true as const } : {}),
      ...(answer.partialOnly ? { allTerms: false as const, note: partialNote(answer.partialOnly.words, answer.total, answer.totalIsLowerBound === true) } : {}),
      tookMs: round(performance.now() - started),
      index: this.freshness(view, fresh),
      warnings: [...cut, ...answer.warnings],
      diagnostics: [...diagnostics, ...answer.diagnostics],
    };
  }

  /** What search answers read besides a view. */
  private get searchSetting(): SearchSetting {
    return { root: this.root, store: this.store, ranking: this.ranking, ripgrepPath: this.options.ripgrepPath, discoveryRules: () => this.discoveryRules(), commitLog: () => this.pastCommits.atHead() };
  }

  /** Discovery's rules as this engine's index applies them (loaded for ripgrep answers only). */
  private async discoveryRules(): Promise<DiscoveryOptions> {
    if (!this.resolvedDiscovery) {
      const { resolveDiscoveryOptions } = await import('../discovery/options');
      this.resolvedDiscovery = resolveDiscoveryOptions(this.options.discovery ?? {});
    }
    return this.resolvedDiscovery;
  }

  private resolvedDiscovery?: DiscoveryOptions;

  async findSymbol(query: string, options: SymbolOptions & { refresh?: RefreshMode } = {}): Promise<SymbolResponse> {
    const started = performance.now();
    const diagnostics: Diagnostic[] = [];
    const name = boundName(query, diagnostics);
    const current = await this.currentView(options.refresh ?? 'if-missing', diagnostics);
    if (!current.view) return { query: name, exact: false, results: [], tookMs: 0, index: this.freshness(undefined, false), diagnostics, note: 'no index yet' };
    const found = await this.recovering(current.view, diagnostics, (v) => v.symbols.find(name, options));
    const { view } = found;
    const fresh = current.fresh || found.rebuilt;
    const { exact, candidates } = found.value;
    const results = symbolResults(this.root, this.store, view, candidates, options);
    const response: SymbolResponse = {
      query: name,
      exact,
      results,
      tookMs: round(performance.now() - started),
      index: this.freshness(view, fresh),
      diagnostics,
    };
    if (!exact) response.note = closestNote(name, results);
    return response;
  }

  /**
   * Where a name occurs as code (`Class.method` for a method of one class), with its
   * definitions; each reference certain (it resolves to them) or a name match, certain ones
   * first. Reads the occurrence tables and only the returned references' lines.
   */
  async references(query: string, options: ReferenceOptions & { refresh?: RefreshMode } = {}): Promise<ReferencesResponse> {
    const started = performance.now();
    const diagnostics: Diagnostic[] = [];
    const name = boundName(query, diagnostics);
    const current = await this.currentView(options.refresh ?? 'if-missing', diagnostics);
    if (!current.view) {
      return { name, definitions: [], references: [], byFile: [], total: 0, certain: 0, truncated: false, note: 'no index yet', tookMs: 0, index: this.freshness(undefined, false), diagnostics };
    }
    const found = await this.recovering(current.view, diagnostics, (v) => findReferences(referenceSources(this.root, this.store, v), name, options));
    const { diagnostics: own, ...answer } = found.value;
    return { ...answer, tookMs: round(performance.now() - started), index: this.freshness(found.view, current.fresh || found.rebuilt), diagnostics: [...diagnostics, ...own] };
  }

  /**
   * A context pack for a task: what to read (spans), what is related, and what was considered
   * and left out, under a hard token budget. Refreshes the index first unless told not to.
   */
  async buildPack(
    task: string,
    options: PackOptions & { refresh?: RefreshMode; guidance?: (task: string) => Promise<GuidanceEntry[]> } = {},
  ): Promise<ContextPack> {
    const diagnostics: Diagnostic[] = [];
    const { view } = await this.currentView(options.refresh ?? 'always', diagnostics);
    if (!view) throw new Error('no index: refresh the index before building a pack');
    const graph = (view.graph ??= importGraph(this.store, view));
    const [{ buildPack }, { certainCallersOf }] = await Promise.all([import('../pack/build'), import('../pack/callers')]);
    const ctx = packContext({
      root: this.root,
      store: this.store,
      view,
      graph,
      search: (query, o) => this.search(query, { ...o, refresh: 'never' }),
      searchFiles: (query, o) => this.searchFiles(query, { ...o, refresh: 'never' }),
      certainCallersOf,
      referenceSources: () => referenceSources(this.root, this.store, view),
      guidance: options.guidance,
    });
    const pack = await buildPack(ctx, task, options);
    pack.diagnostics.unshift(...diagnostics);
    return pack;
  }

  /** The chunk a `path:start-end` id names (or the smallest containing its first line). */
  async chunkFor(docid: string): Promise<(Span & { symbol: string; kind: string }) | undefined> {
    const parsed = parseDocid(docid);
    if (!parsed) return undefined;
    const { view } = await this.currentView('if-missing', []);
    const ref = view?.locator.locate(parsed.path, parsed.startLine);
    if (!view || !ref) return undefined;
    const seg = view.snapshot.segments[ref.seg]!;
    return { path: parsed.path, startLine: seg.docStart.at(ref.doc), endLine: seg.docEnd.at(ref.doc), symbol: seg.symbolOf(ref.doc), kind: seg.kindOf(ref.doc) };
  }

  /**
   * What is indexed, when, how fresh and how big. Never builds anything. `manifestOnly` leaves
   * out what needs the state table (languages, skipped files): a long-lived host keeps those
   * from its last whole-root refresh.
   */
  status(options: { manifestOnly?: boolean } = {}): IndexStatus {
    return indexStatus(this.root, this.store, options);
  }

  /**
   * Every live chunk with its metadata and current text, file by file (for `cairn export` and
   * external RAG/graph ingestion). Text comes from the working tree; `stale` marks files that
   * changed since they were indexed. `diagnostics` receives what reading said (a damaged store
   * rebuilt first).
   */
  async *exportChunks(diagnostics: Diagnostic[] = []): AsyncGenerator<ExportedChunk> {
    const { view } = await this.currentView('if-missing', diagnostics);
    if (!view) return;
    yield* exportView(this.root, this.store, view);
  }

  async close(): Promise<void> {
    await this.chunkers.close();
  }
}

export { compareHits };

/** Error codes of a store that cannot be written now although it can be read. */
const UNWRITABLE = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT']);

/** Why a refresh could not run, for errors a query can answer despite; undefined for others. */
function refreshBlocker(e: unknown): string | undefined {
  if (e instanceof LockHeldError || e instanceof LockTimeoutError || e instanceof StoreLocationError) return e.message;
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code && UNWRITABLE.has(code)) return code === 'ENOSPC' || code === 'EDQUOT' ? `the disk is full (${code})` : `the store cannot be written (${code})`;
  return undefined;
}
