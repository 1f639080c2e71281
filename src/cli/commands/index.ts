// `cairn index [ROOT]`: builds or refreshes the index incrementally and reports what changed.

import type { CommandSpec, ParsedArgs } from '../args';
import type { Command } from '../command';
import { JSON_OPTION, openEngine, resolveRoot, STORE_OPTIONS } from '../engineSetup';
import type { Output } from '../output';
import { formatBytes, formatCounts, ProgressLine } from '../format';
import type { RefreshProgress } from '../../core/api';
import { startTimings, TIMINGS_ENV } from '../../core/engineApi';
import { formatTimings } from '../timingsTable';

const spec: CommandSpec = {
  name: 'index',
  usage: 'cairn index [ROOT] [--store DIR] [--rebuild] [--timings] [--json]',
  maxPositionals: 1,
  options: {
    ...STORE_OPTIONS,
    rebuild: { type: 'boolean', description: 'discard the index and build it from scratch' },
    timings: { type: 'boolean', description: `print the time of each indexing stage, summed over threads (also ${TIMINGS_ENV}=1)` },
    ...JSON_OPTION,
  },
};

async function run(args: ParsedArgs, out: Output): Promise<number> {
  const root = resolveRoot(args.values, args.positionals[0]);
  // Before the engine: the threads it starts record into the buffer this creates.
  startTimings(args.values.timings === true);
  const engine = openEngine(args.values, root);
  const progress = new ProgressLine(out);
  try {
    const report = await engine.refresh({
      rebuild: args.values.rebuild === true,
      onProgress: (p: RefreshProgress) => progress.update(p.total ? `${p.phase} ${p.done}/${p.total}` : p.phase),
    });
    progress.clear();
    const status = engine.status();
    if (out.json) {
      out.record({ ...report, skipped: undefined, skippedFiles: report.skipped, store: status.storeDir, storeBytes: status.storeBytes });
      return 0;
    }
    out.line(`indexed ${root}`);
    out.line(`  ${report.files} files, ${report.chunks} chunks (${report.added} added, ${report.changed} changed, ${report.removed} removed, ${report.unchanged} unchanged) in ${report.durationMs} ms`);
    if (report.skipped.length) out.line(`  skipped ${report.skipped.length}: ${formatCounts(report.skippedByReason)}`);
    out.line(`  store ${status.storeDir} (${formatBytes(status.storeBytes)})`);
    if (report.timings) for (const line of formatTimings(report.timings, report.durationMs)) out.line(`  ${line}`);
    const notable = report.diagnostics.filter((x) => x.severity !== 'info');
    for (const d of notable.slice(0, 5)) out.note(`${d.severity}: ${d.path ? `${d.path}: ` : ''}${d.message}`);
    if (notable.length > 5) out.note(`… and ${notable.length - 5} more diagnostics (--json lists them all)`);
    return 0;
  } finally {
    progress.clear();
    await engine.close();
  }
}

export const command: Command = { spec, run };
