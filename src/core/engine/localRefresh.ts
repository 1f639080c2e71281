// A refresh run in this thread: the indexer with an engine's options. The engine calls it for
// incremental refreshes, and the index thread (indexWorker.ts) for builds from nothing, so both
// index exactly alike without the index thread running an engine of its own.
import type { ChunkingPolicy } from '../chunking/policy';
import type { IndexStore } from '../store/store';
import type { EngineOptions, RefreshReport } from '../api';
import type { IndexerRunOptions } from './indexer';
import type { Chunkers } from './chunkers';
import { discoveryWithoutStore } from '../discovery/withoutStore';

export interface LocalRefreshContext {
  /** Absolute, resolved. */
  root: string;
  store: IndexStore;
  options: Pick<EngineOptions, 'discovery' | 'strategy' | 'lockTimeoutMs'>;
  policy: ChunkingPolicy;
  chunkers: Chunkers;
}

export async function refreshHere(ctx: LocalRefreshContext, refresh: IndexerRunOptions): Promise<RefreshReport> {
  const { refreshIndex } = await import('./indexer');
  const report = await refreshIndex(
    {
      root: ctx.root,
      store: ctx.store,
      discovery: discoveryWithoutStore(ctx.options.discovery ?? {}, ctx.root, ctx.store.dir),
      policy: ctx.policy,
      strategy: ctx.options.strategy ?? 'ast',
      chunker: async () => ctx.chunkers.chunker(),
      lockTimeoutMs: ctx.options.lockTimeoutMs,
    },
    refresh,
  );
  for (const d of await ctx.chunkers.diagnostics()) if (!report.diagnostics.some((x) => x.code === d.code)) report.diagnostics.push(d);
  return report;
}

