// `cairn status [ROOT]`: what is indexed, when, how fresh, and how big the store is.
import type { CommandSpec, ParsedArgs } from '../args';
import type { Command } from '../command';
import { JSON_OPTION, NO_SERVER_OPTION, openQueryEngine, resolveRoot, STORE_OPTIONS } from '../engineSetup';
import type { Output } from '../output';
import type { QueryEngine } from '../../command/context';
import type { FreshnessSummary } from '../../core/api';
import { formatBytes, formatCounts } from '../format';
import { resolveStoreDir } from '../../command/storeLocation';
import { printUsage } from '../usageReport';

const spec: CommandSpec = {
  name: 'status',
  usage: 'cairn status [ROOT] [--store DIR] [--no-server] [--json] [--usage]',
  maxPositionals: 1,
  options: { ...STORE_OPTIONS, ...NO_SERVER_OPTION, ...JSON_OPTION, usage: { type: 'boolean', description: 'the agent tool-use counters instead: calls, results, tokens served against the whole files' } },
};

async function run(args: ParsedArgs, out: Output): Promise<number> {
  const root = resolveRoot(args.values, args.positionals[0]);
  if (args.values.usage === true) return printUsage(resolveStoreDir(root, typeof args.values.store === 'string' ? args.values.store : undefined), out);
  const engine = openQueryEngine(args.values, root);
  try {
    const s = engine.status();
    const served = engine.served;
    if (out.json) {
      // `server`: the `cairn serve` process that answered (absent: this process read the index).
      // `freshness.watching`: whether a watcher reports changes (false: each query checks the tree).
      out.record(served ? { ...s, server: { pid: served.pid, startedAt: new Date(served.startedAtMs).toISOString(), rssBytes: served.rssBytes }, freshness: served.freshness } : { ...s, freshness: IN_PROCESS });
      return 0;
    }
    if (!s.exists) {
      out.line(`${root} is not indexed yet (store ${s.storeDir}); run: cairn index ${JSON.stringify(root)}`);
      for (const d of s.diagnostics) out.note(`${d.severity}: ${d.message}`);
      return 0;
    }
    const age = s.updatedAt ? Math.round((Date.now() - Date.parse(s.updatedAt)) / 1000) : undefined;
    out.line(`root      ${s.root}`);
    out.line(`store     ${s.storeDir} (${formatBytes(s.storeBytes)}, ${s.segments} segments, generation ${s.generation})`);
    out.line(`indexed   ${s.files} files, ${s.chunks} chunks${s.deletedChunks ? ` (+${s.deletedChunks} awaiting merge)` : ''}`);
    out.line(`updated   ${s.updatedAt ?? '-'}${age !== undefined ? ` (${age}s ago)` : ''}`);
    if (s.lastRefresh) out.line(`last run  ${s.lastRefresh.added} added, ${s.lastRefresh.changed} changed, ${s.lastRefresh.removed} removed in ${s.lastRefresh.durationMs} ms`);
    out.line(`languages ${formatCounts(s.languages)}`);
    if (s.skipped.length) out.line(`skipped   ${formatCounts(s.skippedByReason)}`);
    out.line(`server    ${describeServer(served, Date.now())}`);
    // A server that cannot keep the index fresh the usual way says so (no watcher: it polls).
    for (const d of s.diagnostics) if (d.severity === 'warning') out.line(`warning   ${d.message}`);
    return 0;
  } finally {
    await engine.close();
  }
}

const IN_PROCESS: FreshnessSummary = { minIntervalMs: 0, watching: false };

/** Who answers queries and how fresh they are: a watching server, or each command checking the tree itself. */
function describeServer(served: QueryEngine['served'], nowMs: number): string {
  if (!served) return 'none answered (each query checks the tree for changes itself)';
  const f = served.freshness;
  const verified = f.lastCheckedAtMs !== undefined ? `tree verified ${Math.max(0, Math.round((nowMs - f.lastCheckedAtMs) / 1000))}s ago` : 'tree not verified yet';
  const watch = f.watching ? 'watcher live' : 'no watcher (the tree is checked before each query)';
  return `pid ${served.pid}, up ${Math.round((nowMs - served.startedAtMs) / 1000)}s, ${formatBytes(served.rssBytes)} resident; ${watch}; ${verified}`;
}

export const command: Command = { spec, run };
