// The engine a command reads through when `cairn serve` runs it: the host's warm engine, with
// the host's refresh queue (kept current by the watcher) deciding freshness instead of a
// whole-tree check per command. A refresh that is still running or failed becomes a warning on
// the answer, as the in-process path says when it answers from the index as it is.
import type { EngineHost } from '../core/engine/host';
import type { Diagnostic, FreshnessState, PackOptions, ReferenceOptions, RefreshMode, SearchOptions, SymbolOptions } from '../core/api';
import type { QueryEngine, ServedBy } from '../cli/commandContext';

export interface ServedEngineOptions {
  host: EngineHost;
  key: string;
  /** Waits for file events still on their way from the watcher (watch.ts). */
  settle: () => Promise<void>;
  startedAtMs: number;
}

type WithRefresh = { refresh?: RefreshMode };

export class ServedEngine implements QueryEngine {
  constructor(private readonly o: ServedEngineOptions) {}

  get served(): ServedBy {
    return { pid: process.pid, startedAtMs: this.o.startedAtMs, rssBytes: process.memoryUsage.rss(), freshness: this.o.host.queue(this.o.key).describe() };
  }

  async search(query: string, options: SearchOptions & WithRefresh = {}): ReturnType<QueryEngine['search']> {
    const warnings = await this.fresh(options.refresh);
    return withWarnings(await this.o.host.search(this.o.key, query, options), warnings);
  }

  async searchFiles(query: string, options: SearchOptions & WithRefresh = {}): ReturnType<QueryEngine['searchFiles']> {
    const warnings = await this.fresh(options.refresh);
    return withWarnings(await this.o.host.searchFiles(this.o.key, query, options), warnings);
  }

  async findSymbol(name: string, options: SymbolOptions & WithRefresh = {}): ReturnType<QueryEngine['findSymbol']> {
    const warnings = await this.fresh(options.refresh);
    return withWarnings(await this.o.host.findSymbol(this.o.key, name, options), warnings);
  }

  async references(name: string, options: ReferenceOptions & WithRefresh = {}): ReturnType<QueryEngine['references']> {
    const warnings = await this.fresh(options.refresh);
    return withWarnings(await this.o.host.references(this.o.key, name, options), warnings);
  }

  async buildPack(task: string, options: PackOptions & WithRefresh): ReturnType<QueryEngine['buildPack']> {
    const warnings = await this.fresh(options.refresh);
    const pack = await this.o.host.engine(this.o.key).buildPack(task, { ...options, refresh: 'never' });
    return warnings.length ? { ...pack, warnings: [...pack.warnings, ...warnings.map((d) => d.message)] } : pack;
  }

  status(): ReturnType<QueryEngine['status']> {
    return this.o.host.status(this.o.key);
  }

  /** The host's engine stays open for the next client. */
  async close(): Promise<void> {}

  /** Brings the index up to date as `mode` asks; what kept it from that, as diagnostics. */
  private async fresh(mode: RefreshMode = 'always'): Promise<Diagnostic[]> {
    if (mode === 'never') return [];
    if (mode === 'if-missing' && this.o.host.state(this.o.key).status.exists) return [];
    await this.o.settle();
    return freshnessWarnings(await this.o.host.ensureFresh(this.o.key));
  }
}

function freshnessWarnings(state: FreshnessState): Diagnostic[] {
  if (state.kind === 'refreshing') {
    return [{ code: 'refresh-skipped', severity: 'warning', message: `answered from the index as it is: a refresh has been running for ${Math.round(state.startedAgoMs / 1000)}s` }];
  }
  if (state.kind === 'failed') return [{ code: 'refresh-skipped', severity: 'warning', message: `answered from the index as it is: ${state.message}` }];
  if (state.kind === 'refreshed') return state.report.diagnostics.filter((d) => d.severity !== 'info' || d.code === 'config-changed');
  return [];
}

function withWarnings<T extends { diagnostics: Diagnostic[] }>(response: T, warnings: Diagnostic[]): T {
  return warnings.length ? { ...response, diagnostics: [...warnings, ...response.diagnostics] } : response;
}
