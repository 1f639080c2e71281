// `cairn pack "TASK"`: what to read for a task — must-inspect spans with their code, related
// files, and the candidates left out with reasons — under a hard token budget.
import { renderPackMarkdown, registryGuidance } from '../../core/clientApi';
import { choiceOption, intOption, UsageError, type CommandSpec, type ParsedArgs } from '../args';
import type { Command } from '../command';
import { JSON_OPTION, listOption, NO_SERVER_OPTION, openQueryEngine, resolveRoot, ROOT_OPTION, STORE_OPTIONS } from '../engineSetup';
import type { Output } from '../output';
import { FILTER_OPTIONS, filterValues, refreshMode } from '../filterOptions';
import { openRegistry } from '../registrySetup';

const spec: CommandSpec = {
  name: 'pack',
  usage: 'cairn pack "TASK" [--budget TOKENS] [--not PATH|ID] [--root ROOT] [--store DIR] [--json]',
  maxPositionals: 1,
  options: {
    ...ROOT_OPTION,
    ...STORE_OPTIONS,
    budget: { type: 'string', valueName: 'TOKENS', description: 'hard limit on the rendered pack, in estimated tokens (default 6000)' },
    not: { type: 'string', valueName: 'PATH|ID', description: 'a path, glob or path:start-end that is irrelevant (repeatable)', multiple: true },
    lang: FILTER_OPTIONS.lang!,
    path: FILTER_OPTIONS.path!,
    provider: { type: 'string', valueName: 'index|hybrid', description: 'retrieval for the lexical candidates (default hybrid)' },
    'no-refresh': { type: 'boolean', description: 'use the index as it is, without refreshing first' },
    ...NO_SERVER_OPTION,
    ...JSON_OPTION,
  },
};

async function run(args: ParsedArgs, out: Output): Promise<number> {
  const task = args.positionals[0];
  if (task === undefined || !task.trim()) throw new UsageError('a task is required, e.g. cairn pack "fix the retry logic in the HTTP client"');
  const root = resolveRoot(args.values);
  const budget = intOption(args.values, 'budget', 200);
  const provider = choiceOption(args.values, 'provider', ['index', 'hybrid'], 'hybrid');
  const { languages, paths } = filterValues(args.values); // packs filter by language and path only
  const engine = openQueryEngine(args.values, root);
  const { registry } = openRegistry({ ...args.values, root });
  try {
    const pack = await engine.buildPack(task, {
      budgetTokens: budget,
      negatives: listOption(args.values, 'not'),
      languages,
      paths,
      provider,
      refresh: refreshMode(args.values),
      guidance: registryGuidance(registry),
    });
    if (out.json) {
      out.record({ ...pack, markdown: renderPackMarkdown(pack) });
      return 0;
    }
    out.block(renderPackMarkdown(pack));
    for (const w of pack.warnings) out.note(`warning: ${w}`);
    out.note(`${pack.mustInspect.length} spans, ${pack.relatedFiles.length} related files, ${pack.usedTokens}/${pack.budgetTokens} tokens, ${pack.tookMs.toFixed(0)} ms`);
    return 0;
  } finally {
    await engine.close();
  }
}

export const command: Command = { spec, run };
