// `cairn status [ROOT]`: what is indexed, when, how fresh, and how big the store is.
import type { CommandSpec, ParsedArgs } from '../args';
import type { Command } from '../command';
import { JSON_OPTION, openEngine, resolveRoot, STORE_OPTIONS } from '../engineSetup';
import type { Output } from '../output';
import { formatBytes, formatCounts } from '../format';
import { resolveStoreDir } from '../storeDir';
import { printUsage } from '../usageReport';

const spec: CommandSpec = {
  name: 'status',
  usage: 'cairn status [ROOT] [--store DIR] [--json] [--usage]',
  maxPositionals: 1,
  options: { ...STORE_OPTIONS, ...JSON_OPTION, usage: { type: 'boolean', description: 'the agent tool-use counters instead: calls, results, tokens served against the whole files' } },
};

async function run(args: ParsedArgs, out: Output): Promise<number> {
  const root = resolveRoot(args.values, args.positionals[0]);
  if (args.values.usage === true) return printUsage(resolveStoreDir(root, typeof args.values.store === 'string' ? args.values.store : undefined), out);
  const engine = openEngine(args.values, root);
  try {
    const s = engine.status();
    if (out.json) {
      out.record(s);
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
    return 0;
  } finally {
    await engine.close();
  }
}

export const command: Command = { spec, run };
