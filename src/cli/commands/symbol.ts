// `cairn symbol NAME`: go to a definition by name, exact matches first.
import { intOption, UsageError, type CommandSpec, type ParsedArgs } from '../args';
import type { Command } from '../command';
import { JSON_OPTION, NO_SERVER_OPTION, openQueryEngine, resolveRoot, ROOT_OPTION, STORE_OPTIONS } from '../engineSetup';
import type { Output } from '../output';
import { formatSymbolHit } from '../format';
import { FILTER_OPTIONS, filterValues, refreshMode } from '../filterOptions';

const spec: CommandSpec = {
  name: 'symbol',
  usage: 'cairn symbol NAME [--root ROOT] [--store DIR] [--limit N] [--lang L] [--kind K] [--path GLOB] [--json]',
  maxPositionals: 1,
  options: {
    ...ROOT_OPTION,
    ...STORE_OPTIONS,
    limit: { type: 'string', valueName: 'N', description: 'number of results (default 10)' },
    ...FILTER_OPTIONS,
    'no-refresh': { type: 'boolean', description: 'answer from the index as it is, without refreshing first' },
    ...NO_SERVER_OPTION,
    ...JSON_OPTION,
  },
};

async function run(args: ParsedArgs, out: Output): Promise<number> {
  const name = args.positionals[0];
  if (name === undefined || !name.trim()) throw new UsageError('a symbol name is required, e.g. cairn symbol parseConfig');
  const root = resolveRoot(args.values);
  const engine = openQueryEngine(args.values, root);
  try {
    const response = await engine.findSymbol(name, {
      limit: intOption(args.values, 'limit', 1) ?? 10,
      ...filterValues(args.values),
      refresh: refreshMode(args.values),
    });
    if (out.json) {
      out.record(response);
      return 0;
    }
    for (const d of response.diagnostics) out.note(`${d.severity}: ${d.message}`);
    if (response.note) out.line(response.note);
    for (const hit of response.results) for (const line of formatSymbolHit(hit)) out.line(line);
    return 0;
  } finally {
    await engine.close();
  }
}

export const command: Command = { spec, run };
