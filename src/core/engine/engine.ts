// The engine facade every front end uses (CLI, MCP server, the extension's worker thread).
// It owns one store directory for one root. Locations (root, store, grammars, worker script)
// are always passed in; nothing here guesses a path or imports a host API.
import * as fs from 'node:fs';
import * as path from 'node:path';
// Indexing (discovery, chunk workers, grammars), the ripgrep provider and context packs load
// on first use: a one-shot `cairn search` on an up-to-date index never initialises them.
import type { Diagnostic } from '../types';
import type { DiscoveryOptions } from '../discovery';
import { resolvePolicy, type ChunkingPolicy } from '../chunking/policy';
import type { FieldName, FieldParams } from '../index/fields';
import { DEFAULT_FIELD_PARAMS } from '../index/fields';
import { corruptionDiagnostic, IndexStore, StateTable, StoreCorruptError, type Manifest, type Snapshot } from '../store/store';
import { SnapshotScorer, warmNamedDocuments } from '../search/scorer';
import { SymbolIndex } from '../search/symbols';
import { compareHits, DEFAULT_RANKING, groupHitsByFile, round, searchFilesSnapshot, searchSnapshot, type RankingParams } from '../search/search';
import { FileReader, symbolHit } from '../search/hydrate';
import type { FileHit, FileSearchResponse, IndexFreshness, ReferenceOptions, ReferencesResponse, SearchOptions, SearchResponse, SearchResponseMeta, SymbolHit, SymbolOptions, SymbolResponse } from '../search/types';
import { findReferences, type ReferenceSources } from '../search/refs';
import { Chunkers } from './chunkers';
import { refreshHere } from './localRefresh';
import { refreshingFiles } from './pendingFiles';
import { COMMIT_EVERY_FILES, SMALL_REFRESH_FILES } from './refreshQueue';
import { ChunkLocator } from '../search/locate';
import type { ProviderAnswer, ProviderContext } from '../providers/providers';
import { ImportGraph } from '../pack/graph';
import type { PackContext } from '../pack/build';
import type { ContextPack, GuidanceEntry, PackOptions } from '../pack/types';
import { DEFINITION_KINDS } from '../index/fields';
import { CorruptDataError } from '../index/varint';
import { LockHeldError, LockTimeoutError, StoreLocationError } from '../store/lock';
import { parseDocid } from '../chunking/ids';
import { boundQuery } from '../search/query';
import { partialNote } from '../search/allWords';
import { isTaskText } from '../search/taskEvidence';
import { liftInlineFilters, withLiftedFilters } from '../search/inlineFilters';
import { localizeFiles, type LocalizeContext } from '../search/localize';
import type { EngineOptions, ExportedChunk, IndexStatus, RefreshMode, RefreshOptions, RefreshReport, Span } from '../api';

/**
 * The index thread's default heap cap. A cold index of the 815k-chunk benchmark corpus holds
 * ~100 MB live on that thread (the segment being built, one batch of files); the cap leaves
 * room for a segment of huge files while keeping V8 from growing the heap to 300-400 MB.
 */
const DEFAULT_INDEX_HEAP_MB = 192;

/** The longest symbol name looked up (MCP's schema allows as much). */
const MAX_SYMBOL_CHARS = 300;

interface View {
  key: string;
  snapshot: Snapshot;
  scorer: SnapshotScorer;
  symbols: SymbolIndex;
  locator: ChunkLocator;
  /** Built on first use (packs), from the state table's import lists. */
  graph?: ImportGraph;
  /** Import specifiers resolved for references, on demand and kept with the view. */
  imports?: ImportResolution;
  /** Indexed paths by base name, built when a task text first names a file. */
  baseNames?: Map<string, string[]>;
}

/** A view's import specifiers, resolved one file at a time as references ask (not the whole graph a pack builds). */
interface ImportResolution {
  /** Resolves specifiers only: built over the indexed paths, without any file's imports. */
  resolver: ImportGraph;
  paths: ReadonlySet<string>;
  resolved: Map<string, readonly string[]>;
  /** The state table, read on the first import asked for; null when it cannot be read. */
  state?: StateTable | null;
}

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

  constructor(private readonly options: EngineOptions) {
    this.root = path.resolve(options.root);
    this.store = new IndexStore(path.resolve(options.storeDir), this.root);
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
    let threadDied: Diagnostic | undefined;
    if (this.options.indexWorkerScript && ((!options.only && this.buildsFromNothing(options)) || bigRefreshInParts(options))) {
      const answer = await this.refreshOnIndexThread(this.options.indexWorkerScript, options);
      if ('report' in answer) return answer.report;
      threadDied = answer.died;
    }
    const report = await refreshHere({ root: this.root, store: this.store, options: this.options, policy: this.policy, chunkers: this.chunkers }, options);
    this.lastRefreshGeneration = report.generation;
    if (threadDied) report.diagnostics.push(threadDied);
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
   * Runs a whole-index build, or a big refresh in parts, on the index thread. When that thread dies (out of memory under its
   * cap), answers why, and the caller builds in this thread instead.
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
   * Readies a long-lived host (the extension's engine thread, the MCP server) for its next save
   * and its next queries, to call once idle. Loads the grammars of the index's `count` most
   * common languages and parses a line of each: V8 optimises a freshly loaded parser in the
   * background and blocks this thread while it installs the result (0.7–0.8 s on the benchmark
   * machine, about a second after first use). Then reads in the index sections queries would
   * otherwise load mid-query. Cheap once warm; never throws.
   */
  async warmUp(count = 3): Promise<void> {
    await this.warmChunker(count);
    await this.warmIndex();
  }

  /**
   * Reads in, segment by segment, the index sections queries of a long-lived host end up
   * reading whole anyway, and decodes its most common terms' postings into the cache they
   * would reach after a few queries (Segment.warmForQueries, warmPostings), so no query pays
   * for that. Yields between steps: a query asked meanwhile waits for at most one step.
   */
  async warmIndex(): Promise<void> {
    try {
      // The store's snapshot, not a view: a damaged store is left for the next query to report
      // and rebuild, never repaired silently here. Its segments are the ones views share.
      const snapshot = this.store.snapshot();
      const yieldToQueries = () => new Promise((resolve) => setImmediate(resolve));
      for (const segment of snapshot?.segments ?? []) {
        segment.warmForQueries();
        await yieldToQueries();
        const warmed = segment.warmPostings();
        await yieldToQueries();
        for (const term of warmed) warmNamedDocuments(segment, term);
        await yieldToQueries();
      }
    } catch {
      // A damaged section surfaces (and is repaired) at the next query.
    }
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

  private async warmChunker(count: number): Promise<void> {
    try {
      const manifest = this.store.readManifest();
      if (!manifest) return;
      const pathByLanguage = new Map<string, string>();
      const filesByLanguage = new Map<string, number>();
      for (const [p, language] of this.store.readState(manifest).languages()) {
        filesByLanguage.set(language, (filesByLanguage.get(language) ?? 0) + 1);
        if (!pathByLanguage.has(language)) pathByLanguage.set(language, p);
      }
      const languages = [...filesByLanguage].sort((x, y) => y[1] - x[1]).slice(0, count).map(([l]) => l);
      await this.chunkers.warm(languages.map((language) => ({ language, path: pathByLanguage.get(language) as string })));
    } catch {
      // A cold parser only costs the next save some time.
    }
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
      const key = `${snapshot.manifest.generation}:${snapshot.manifest.segments.map((s) => `${s.name}/${s.deleted.length}`).join(',')}`;
      if (this.view?.key !== key) {
        const scorer = new SnapshotScorer(snapshot, this.fieldParams);
        this.view = { key, snapshot, scorer, symbols: new SymbolIndex(snapshot), locator: new ChunkLocator(snapshot) };
      }
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
    const { answer, query: asked, ...rest } = await this.freshAnswer(query, options, (v, q) => this.answer(v, q, options), (a) => a.hits);
    return { query: asked, results: answer?.hits ?? [], ...rest };
  }

  /**
   * Files ranked as files (`groupBy: 'file'`): each file scored by the evidence of its matching
   * chunks, with its best spans; `limit` and `offset` count files.
   */
  async searchFiles(typed: string, given: SearchOptions & { refresh?: RefreshMode; refreshStale?: boolean; signal?: AbortSignal } = {}): Promise<FileSearchResponse> {
    const { query, options } = liftFilters(typed, given);
    const { answer, query: asked, ...rest } = await this.freshAnswer(query, options, (v, q) => this.answerFiles(v, q, options, query), (a) => a.files);
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

  /** A reader whose hits are stale by the refresh's own change test (the view's recorded stats). */
  private fileReader(view: View): FileReader {
    let state: StateTable | null | undefined;
    return new FileReader(this.root, (p) => {
      if (state === undefined) {
        try {
          state = this.store.readState(view.snapshot.manifest);
        } catch {
          // An unreadable state table is the next refresh's to report; hits fall back to size and mtime.
          state = null;
        }
      }
      return state?.get(p);
    });
  }

  private async answerFiles(
    view: View,
    query: string,
    options: SearchOptions & { signal?: AbortSignal },
    /** The text as given, before the query bound: a task text's evidence is read from all of it. */
    text: string = query,
  ): Promise<{ files: FileHit[]; total: number; totalIsLowerBound?: boolean; warnings: string[]; diagnostics: Diagnostic[] }> {
    if ((options.provider ?? 'index') === 'index') {
      const reader = this.fileReader(view);
      if (isTaskText(text)) {
        // Rank a deeper pool by keywords, then let the text's structure reorder it.
        const limit = Math.max(1, options.limit ?? 20);
        const offset = Math.max(0, options.offset ?? 0);
        const r = searchFilesSnapshot(view.scorer, reader, query, { ...options, limit: Math.max(50, 3 * (limit + offset)), offset: 0 }, this.ranking, view.symbols);
        const files = localizeFiles(this.localizeContext(view, reader, options.previewLines ?? 3), text, r.files, offset + limit).slice(offset);
        return { files, total: Math.max(r.total, offset + files.length), totalIsLowerBound: r.totalIsLowerBound, warnings: r.warnings, diagnostics: [] };
      }
      const r = searchFilesSnapshot(view.scorer, reader, query, options, this.ranking, view.symbols);
      return { files: r.files, total: r.total, totalIsLowerBound: r.totalIsLowerBound, warnings: r.warnings, diagnostics: [] };
    }
    // Other providers answer with chunks: rank enough of them, then group them by file.
    const limit = Math.max(1, options.limit ?? 20);
    const offset = Math.max(0, options.offset ?? 0);
    const chunks = await this.answer(view, query, { ...options, limit: Math.min(10 * (limit + offset), 1000), offset: 0, maxPerFile: 0, crossReferences: false });
    const files = groupHitsByFile(chunks.hits, query, this.ranking);
    return { files: files.slice(offset, offset + limit), total: files.length, totalIsLowerBound: chunks.total > chunks.hits.length, warnings: chunks.warnings, diagnostics: chunks.diagnostics };
  }

  /** What localization reads of a view: base names, definitions and chunks by line. */
  private localizeContext(view: View, reader: FileReader, previewLines: number): LocalizeContext {
    const hitOf = (seg: number, doc: number) => reader.hit(view.snapshot.segments[seg] as Snapshot['segments'][number], doc, previewLines, undefined);
    const baseNames = (view.baseNames ??= indexByBaseName(view.locator.paths()));
    return {
      filesNamed: (name) => baseNames.get(name) ?? [],
      definitions: (name, limit) => {
        const { exact, candidates } = view.symbols.find(name, { limit: (limit + 1) * 3 });
        if (!exact) return [];
        return candidates
          .filter((c) => c.match === 'exact' || c.match === 'qualified')
          .filter((c) => DEFINITION_KINDS.has(view.snapshot.segments[c.seg]!.kindOf(c.doc)))
          .slice(0, limit + 1)
          .map((c) => hitOf(c.seg, c.doc));
      },
      chunkAt: (path, line) => {
        const ref = view.locator.locate(path, line);
        return ref ? hitOf(ref.seg, ref.doc) : undefined;
      },
      firstChunk: (path) => {
        const ref = view.locator.chunksOf(path)[0];
        return ref ? hitOf(ref.seg, ref.doc) : undefined;
      },
      chunksMatching: (words, limit) => searchSnapshot(view.scorer, view.symbols, reader, words, { limit, previewLines: 0, crossReferences: false }, this.ranking).hits,
      text: (hit) => reader.text(hit.path, hit.startLine, hit.endLine),
      importsOf: (path) => (view.graph ??= this.importGraph(view)).importsOf(path),
      importersOf: (path) => (view.graph ??= this.importGraph(view)).importersOf(path),
    };
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

  private async answer(view: View, query: string, options: SearchOptions & { signal?: AbortSignal }): Promise<ProviderAnswer> {
    const reader = this.fileReader(view);
    const indexAnswer = (o: SearchOptions): ProviderAnswer => {
      const r = searchSnapshot(view.scorer, view.symbols, reader, query, o, this.ranking);
      return { hits: r.hits, total: r.total, totalIsLowerBound: r.totalIsLowerBound, ...(r.partialOnly ? { partialOnly: r.partialOnly } : {}), warnings: r.warnings, diagnostics: [] };
    };
    const context = async (): Promise<ProviderContext> => ({
      root: this.root,
      snapshot: view.snapshot,
      locator: view.locator,
      symbols: view.symbols,
      reader,
      rgPath: this.options.ripgrepPath,
      discovery: await this.discoveryRules(),
    });
    switch (options.provider ?? 'index') {
      case 'index':
        return indexAnswer(options);
      case 'ripgrep': {
        const { ripgrepProvider } = await import('../providers/providers');
        return ripgrepProvider(await context(), query, options);
      }
      case 'hybrid': {
        const { fuseHybrid, ripgrepWordsProvider } = await import('../providers/providers');
        const ctx = await context();
        const depth = Math.max(30, ((options.limit ?? 20) + (options.offset ?? 0)) * 3);
        const idx = indexAnswer({ ...options, limit: depth, offset: 0 });
        const rg = await ripgrepWordsProvider(ctx, query, { ...options, limit: depth, offset: 0 });
        const fused = fuseHybrid(ctx, query, [{ name: 'index', hits: idx.hits }, { name: 'ripgrep', hits: rg.hits, weight: this.ranking.hybridRipgrep }], options);
        return { hits: fused.hits, total: fused.total, warnings: [...idx.warnings, ...rg.warnings], diagnostics: rg.diagnostics };
      }
      default:
        throw new Error(`unknown provider ${String(options.provider)}`);
    }
  }

  async findSymbol(query: string, options: SymbolOptions & { refresh?: RefreshMode } = {}): Promise<SymbolResponse> {
    const started = performance.now();
    const diagnostics: Diagnostic[] = [];
    // No name is this long; a pasted blob would only be echoed back.
    const name = query.length > MAX_SYMBOL_CHARS ? query.slice(0, MAX_SYMBOL_CHARS) : query;
    if (name !== query) diagnostics.push({ code: 'query-cut', severity: 'warning', message: `the name was cut to its first ${MAX_SYMBOL_CHARS} characters (of ${query.length})` });
    const current = await this.currentView(options.refresh ?? 'if-missing', diagnostics);
    if (!current.view) return { query: name, exact: false, results: [], tookMs: 0, index: this.freshness(undefined, false), diagnostics, note: 'no index yet' };
    const found = await this.recovering(current.view, diagnostics, (v) => v.symbols.find(name, options));
    const { view } = found;
    const fresh = current.fresh || found.rebuilt;
    const { exact, candidates } = found.value;
    const reader = this.fileReader(view);
    const results: SymbolHit[] = candidates.map((c) => {
      const seg = view.snapshot.segments[c.seg];
      const hit = symbolHit(reader, seg as NonNullable<typeof seg>, c.doc, options.previewLines ?? 3, c.nested);
      const breakdown = [{ kind: 'match' as const, name: c.match, value: c.score - c.penalties.reduce((s, p) => s + p.value, 0) }, ...c.penalties.map((p) => ({ kind: 'match' as const, name: p.name, value: p.value }))];
      return { ...hit, score: c.score, scoreBreakdown: breakdown, match: c.match, qualifiedName: c.qualifiedName };
    });
    const response: SymbolResponse = {
      query: name,
      exact,
      results,
      tookMs: round(performance.now() - started),
      index: this.freshness(view, fresh),
      diagnostics,
    };
    if (!exact) {
      response.note = results.length
        ? `no symbol named "${name}"; closest: ${results.map((r) => r.qualifiedName || r.symbol).join(', ')}`
        : `no symbol named "${name}" and nothing close`;
    }
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
    const name = query.length > MAX_SYMBOL_CHARS ? query.slice(0, MAX_SYMBOL_CHARS) : query;
    if (name !== query) diagnostics.push({ code: 'query-cut', severity: 'warning', message: `the name was cut to its first ${MAX_SYMBOL_CHARS} characters (of ${query.length})` });
    const current = await this.currentView(options.refresh ?? 'if-missing', diagnostics);
    if (!current.view) {
      return { name, definitions: [], references: [], byFile: [], total: 0, certain: 0, truncated: false, note: 'no index yet', tookMs: 0, index: this.freshness(undefined, false), diagnostics };
    }
    const found = await this.recovering(current.view, diagnostics, (v) => findReferences(this.referenceSources(v), name, options));
    const { diagnostics: own, ...answer } = found.value;
    return { ...answer, tookMs: round(performance.now() - started), index: this.freshness(found.view, current.fresh || found.rebuilt), diagnostics: [...diagnostics, ...own] };
  }

  /** What a references lookup reads besides the occurrence tables; the state table only if an import must be resolved. */
  private referenceSources(view: View): ReferenceSources {
    const imports = (): ImportResolution => {
      if (!view.imports) {
        const paths = new Set(view.locator.paths());
        view.imports = { resolver: new ImportGraph(new Map(), paths), paths, resolved: new Map() };
      }
      return view.imports;
    };
    return {
      snapshot: view.snapshot,
      symbols: view.symbols,
      reader: this.fileReader(view),
      importsOf: (p) => {
        const r = imports();
        if (r.state === undefined) {
          try {
            r.state = this.store.readState(view.snapshot.manifest);
          } catch (e) {
            if (!(e instanceof StoreCorruptError)) throw e;
            r.state = null; // without imports, references in other files are name matches
          }
        }
        return r.state?.get(p)?.imports;
      },
      resolveImport: (from, spec) => {
        const r = imports();
        // A module path (`express`, `flask.app`, `com.acme.Order`) resolves the same from every
        // file: one resolution serves them all. Relative ones depend on the importing file.
        const key = dependsOnImporter(spec) ? `${from}\u0000${spec}` : spec;
        let targets = r.resolved.get(key);
        if (!targets) r.resolved.set(key, (targets = r.resolver.resolve(from, spec)));
        return targets;
      },
      isIndexed: (p) => imports().paths.has(p),
    };
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
    const reader = this.fileReader(view);
    const hitOf = (seg: number, doc: number) => reader.hit(view.snapshot.segments[seg] as Snapshot['segments'][number], doc, 0, undefined);
    if (!view.graph) view.graph = this.importGraph(view);
    const [{ buildPack }, { certainCallersOf }] = await Promise.all([import('../pack/build'), import('../pack/callers')]);
    const chunkAt = (path: string, line: number) => {
      const ref = view.locator.locate(path, line);
      return ref ? hitOf(ref.seg, ref.doc) : undefined;
    };
    const ctx: PackContext = {
      search: (query, o) => this.search(query, { ...o, refresh: 'never' }),
      searchFiles: (query, o) => this.searchFiles(query, { ...o, refresh: 'never' }),
      definitions: (name, limit) => {
        const { exact, candidates } = view.symbols.find(name, { limit: limit * 3 });
        if (!exact) return [];
        return candidates
          .filter((c) => c.match === 'exact' || c.match === 'exact-ignore-case' || c.match === 'qualified')
          .filter((c) => DEFINITION_KINDS.has(view.snapshot.segments[c.seg]!.kindOf(c.doc)))
          .slice(0, limit)
          .map((c) => hitOf(c.seg, c.doc));
      },
      spanAt: (path, startLine, endLine) => {
        const refs = view.locator.chunksOf(path);
        const exact = refs.find((r) => {
          const seg = view.snapshot.segments[r.seg]!;
          return seg.docStart.at(r.doc) === startLine && (endLine === undefined || seg.docEnd.at(r.doc) === endLine);
        });
        const ref = exact ?? view.locator.locate(path, startLine);
        return ref ? hitOf(ref.seg, ref.doc) : undefined;
      },
      chunksOf: (path) => view.locator.chunksOf(path).map((r) => hitOf(r.seg, r.doc)),
      isIndexed: (path) => view.locator.has(path),
      text: (hit) => {
        // A chunk standing for part of its lines (minified code) is read as its characters.
        const ref = hit.id ? view.locator.chunksOf(hit.path).find((r) => view.snapshot.segments[r.seg]!.id(r.doc) === hit.id) : undefined;
        const seg = ref && view.snapshot.segments[ref.seg]!;
        return seg && seg.record(ref.doc).span ? reader.chunkText(seg, ref.doc) : reader.text(hit.path, hit.startLine, hit.endLine);
      },
      graph: view.graph,
      certainCallers: (def, limit) => certainCallersOf(this.referenceSources(view), def, limit, chunkAt),
      guidance: options.guidance,
    };
    const pack = await buildPack(ctx, task, options);
    pack.diagnostics.unshift(...diagnostics);
    return pack;
  }

  /** The import graph of the current view's files (resolved from the state table's import lists). */
  private importGraph(view: View): ImportGraph {
    const imports = new Map<string, string[]>();
    try {
      const state = this.store.readState(view.snapshot.manifest);
      for (const [p, list] of state.imports()) imports.set(p, list);
    } catch (e) {
      if (!(e instanceof StoreCorruptError)) throw e;
    }
    return new ImportGraph(imports, view.locator.paths());
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
    const base: IndexStatus = {
      root: this.root,
      storeDir: this.store.dir,
      exists: false,
      generation: 0,
      files: 0,
      chunks: 0,
      segments: 0,
      deletedChunks: 0,
      storeBytes: 0,
      skippedByReason: {},
      skipped: [],
      languages: {},
      diagnostics: [],
    };
    let manifest: Manifest | undefined;
    try {
      manifest = this.store.readManifest();
    } catch (e) {
      if (e instanceof StoreCorruptError) {
        base.diagnostics.push({ code: e.code, severity: 'warning', message: `${e.message}; the next refresh rebuilds it` });
        return base;
      }
      throw e;
    }
    if (!manifest) return base;
    let state = StateTable.empty();
    try {
      if (!options.manifestOnly) state = this.store.readState(manifest);
    } catch (e) {
      if (!(e instanceof StoreCorruptError)) throw e;
      base.diagnostics.push({ code: e.code, severity: 'warning', message: e.message });
    }
    const languages: Record<string, number> = {};
    for (const [, language] of state.languages()) languages[language] = (languages[language] ?? 0) + 1;
    const skippedByReason: Record<string, number> = {};
    for (const s of state.skipped) skippedByReason[s.reason] = (skippedByReason[s.reason] ?? 0) + 1;
    return {
      ...base,
      exists: true,
      generation: manifest.generation,
      files: manifest.files,
      chunks: manifest.chunks,
      segments: manifest.segments.length,
      deletedChunks: manifest.segments.reduce((n, s) => n + s.deleted.reduce((m, [, c]) => m + c, 0), 0),
      storeBytes: this.store.sizeOnDisk(manifest),
      createdAt: manifest.createdAt,
      updatedAt: manifest.updatedAt,
      lastRefresh: manifest.lastRefresh,
      skippedByReason,
      skipped: state.skipped,
      languages,
    };
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
    const { segments } = view.snapshot;
    for (const filePath of view.locator.paths().sort()) {
      // One reader per file: it keeps what it read, and an export goes through every file once.
      const reader = this.fileReader(view);
      for (const ref of view.locator.chunksOf(filePath)) {
        const seg = segments[ref.seg] as Snapshot['segments'][number];
        const hit = reader.hit(seg, ref.doc, 0, undefined);
        const rec = seg.record(ref.doc);
        yield {
          docid: hit.docid,
          id: hit.id,
          path: hit.path,
          startLine: hit.startLine,
          endLine: hit.endLine,
          language: hit.language,
          kind: hit.kind,
          symbol: hit.symbol,
          context: hit.context,
          ...(rec.signature ? { signature: rec.signature } : {}),
          ...(hit.context.length > hit.symbol.length && hit.symbol && hit.context.endsWith(hit.symbol) ? { parent: hit.context.slice(0, hit.context.length - hit.symbol.length).replace(/(\.|::|#| > )$/, '') } : {}),
          // The chunk's own text: its characters when it shares its lines (a minified line holds
          // thousands of chunks, and printing the line for each was gigabytes), else its lines.
          text: reader.chunkText(seg, ref.doc) ?? '',
          ...(hit.stale ? { stale: true } : {}),
        };
      }
    }
  }

  async close(): Promise<void> {
    await this.chunkers.close();
  }
}

export { compareHits };

/** A specifier pack/graph.ts resolves against the importing file's folder: `./x`, `../x`, Python's `.x`, a C header `x.h`. */
function dependsOnImporter(spec: string): boolean {
  const s = spec.trim();
  return s.startsWith('.') || s.startsWith('/') || (!s.includes(':') && /\.(h|hpp|hh|c|cc|cpp|php|rb|css|scss)['">]?$/.test(s));
}

/** Error codes of a store that cannot be written now although it can be read. */
const UNWRITABLE = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT']);

/** Why a refresh could not run, for errors a query can answer despite; undefined for others. */
/**
 * A long-lived host's refresh of many named paths (a checkout, a branch switch): run on the index
 * thread, so its reading, building, merging and fsyncs never hold up a query on this thread. A
 * save is refreshed here (starting a thread costs more than a few files).
 */
function bigRefreshInParts(options: RefreshOptions): boolean {
  return options.commitEveryFiles !== undefined && options.only !== undefined && options.only.length > SMALL_REFRESH_FILES;
}

function refreshBlocker(e: unknown): string | undefined {
  if (e instanceof LockHeldError || e instanceof LockTimeoutError || e instanceof StoreLocationError) return e.message;
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code && UNWRITABLE.has(code)) return code === 'ENOSPC' || code === 'EDQUOT' ? `the disk is full (${code})` : `the store cannot be written (${code})`;
  return undefined;
}

function indexByBaseName(paths: readonly string[]): Map<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const p of paths) {
    const name = p.slice(p.lastIndexOf('/') + 1);
    const list = byName.get(name);
    if (list) list.push(p);
    else byName.set(name, [p]);
  }
  return byName;
}

/**
 * `lang:`, `kind:` and `scope:` typed in a short query are filters, for every front end; a
 * task text keeps its words (`kind:` in a pasted log is text).
 */
function liftFilters<O extends SearchOptions>(typed: string, options: O): { query: string; options: O } {
  if (isTaskText(typed)) return { query: typed, options };
  const lifted = liftInlineFilters(typed);
  if (lifted.labels.length === 0) return { query: typed, options };
  return { query: lifted.text, options: withLiftedFilters(options, lifted.filters) };
}
