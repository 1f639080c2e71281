// `cairn status --usage`: the store's tool-use counters (src/tools/usage.ts), as a table or JSON.
// Reads `<store>/usage.json` only: no engine, no index, nothing written.
import { describeEconomy, readUsage, spanEconomy, usageAllowedByEnv, usageTable, usageTotals } from '../tools/usage';
import type { Output } from './output';

export async function printUsage(storeDir: string, out: Output): Promise<number> {
  const { summary, problem } = await readUsage(storeDir);
  const counting = usageAllowedByEnv();
  if (out.json) {
    out.record({
      storeDir,
      counting,
      usage: summary ?? null,
      ...(summary ? { totals: usageTotals(summary), spans: spanEconomy(summary) } : {}),
      ...(problem ? { warnings: [problem] } : {}),
    });
    return 0;
  }
  if (problem) out.note(`warning: ${problem}; it is started again on the next count`);
  const off = counting ? '' : ' (counting is off: CAIRN_USAGE is set)';
  if (!summary) {
    out.line(`no agent tool calls counted yet in ${storeDir}${off}`);
    return 0;
  }
  out.line(`agent tool use since ${summary.since} (last counted ${summary.updatedAt}), on this machine only${off}`);
  out.line('');
  for (const line of usageTable(summary)) out.line(line);
  if (!describeEconomy(summary)) out.line('no answer made of spans yet');
  return 0;
}
