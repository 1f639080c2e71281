// `cairn search "QUERY"`: ranked chunk search. Refreshes the index incrementally first (so
// what it prints is current), then answers with exact spans and score breakdowns.
import type { Scope, SearchResponseMeta } from '../../core/api';
import { choiceOption, intOption, UsageError, type CommandSpec, type ParsedArgs } from '../args';
import type { Command } from '../command';
import { JSON_OPTION, NO_SERVER_OPTION, openQueryEngine, resolveRoot, ROOT_OPTION, STORE_OPTIONS } from '../engineSetup';
import type { Output } from '../output';
import { formatFiles, formatHit } from '../format';
import { FILTER_OPTIONS, filterValues, refreshMode } from '../filterOptions';

const spec: CommandSpec = {
  name: 'search',
  usage: 'cairn search "QUERY" [--root ROOT] [--store DIR] [--limit N] [--lang L] [--kind K] [--path GLOB] [--scope auto|code|docs|all] [--provider index|ripgrep|hybrid] [--regex] [--prefix] [--group chunk|file] [--json]',
  maxPositionals: 1,
  options: {
    ...ROOT_OPTION,
    ...STORE_OPTIONS,
    limit: { type: 'string', valueName: 'N', description: 'number of results (default 10)' },
    offset: { type: 'string', valueName: 'N', description: 'skip the first N results' },
    ...FILTER_OPTIONS,
    scope: { type: 'string', valueName: 'auto|code|docs|all', description: 'auto (default): code first when the query looks like code or a task; code: code first, strongly; docs: only docs; all: no preference' },
    provider: { type: 'string', valueName: 'index|ripgrep|hybrid', description: 'index (default), ripgrep (exact text), or hybrid (both, fused)' },
    regex: { type: 'boolean', description: 'with --provider ripgrep: the query is a regular expression' },
    group: { type: 'string', valueName: 'chunk|file', description: 'chunk (default): ranked chunks; file: ranked files, each with its best spans (--limit counts files)' },
    prefix: { type: 'boolean', description: 'the last word also matches as a prefix (getSco finds getScope), below exact words' },
    'no-refresh': { type: 'boolean', description: 'answer from the index as it is, without refreshing first' },
    ...NO_SERVER_OPTION,
    ...JSON_OPTION,
  },
};

async function run(args: ParsedArgs, out: Output): Promise<number> {
  const query = args.positionals[0];
  if (query === undefined || !query.trim()) throw new UsageError('a query is required, e.g. cairn search "parse config"');
  const root = resolveRoot(args.values);
  const limit = intOption(args.values, 'limit', 1) ?? 10;
  const offset = intOption(args.values, 'offset', 0) ?? 0;
  const scope = choiceOption<Scope>(args.values, 'scope', ['auto', 'code', 'docs', 'all'], 'auto');
  const provider = choiceOption(args.values, 'provider', ['index', 'ripgrep', 'hybrid'], 'index');
  if (args.values.regex && provider !== 'ripgrep') throw new UsageError('--regex works with --provider ripgrep');
  const group = choiceOption(args.values, 'group', ['chunk', 'file'], 'chunk');
  const engine = openQueryEngine(args.values, root);
  try {
    const options = {
      limit,
      offset,
      scope,
      provider,
      regex: args.values.regex === true,
      prefixLast: args.values.prefix === true,
      ...filterValues(args.values),
      refresh: refreshMode(args.values),
    };
    if (group === 'file') return await runFiles(engine, query, out, options);
    const response = await engine.search(query, options);
    if (!printPreamble(response, response.results.length, out)) return 0;
    // Partial matches are listed under a line saying that they are, never counted as results.
    if (response.note) out.line(response.note);
    for (const hit of response.results) {
      for (const line of formatHit(hit, hit.crossReferenceFrom ? `  ← mentioned in ${hit.crossReferenceFrom}` : '')) out.line(line);
    }
    out.note(`${response.results.length} of ${response.total}${response.totalIsLowerBound ? '+' : ''} ${response.allTerms === false ? 'partial matches' : 'results'} in ${response.tookMs.toFixed(1)} ms (${response.index.files} files, ${response.index.chunks} chunks)`);
    return 0;
  } finally {
    await engine.close();
  }
}

/** `--group file`: files ranked as files, each with its best span lines. */
async function runFiles(engine: ReturnType<typeof openQueryEngine>, query: string, out: Output, options: Parameters<ReturnType<typeof openQueryEngine>['searchFiles']>[1]): Promise<number> {
  const response = await engine.searchFiles(query, { ...options, groupBy: 'file' });
  if (!printPreamble(response, response.files.length, out)) return 0;
  if (response.note) out.line(response.note);
  for (const line of formatFiles(response.files)) out.line(line);
  out.note(`${response.files.length} of ${response.total}${response.totalIsLowerBound ? '+' : ''} ${response.allTerms === false ? 'partial matches' : 'files'} in ${response.tookMs.toFixed(1)} ms (${response.index.files} files, ${response.index.chunks} chunks)`);
  return 0;
}

/**
 * The JSON record, or the warnings, diagnostics and a line for no results, of either kind of
 * response. True when there are results left to print as text.
 */
function printPreamble(response: SearchResponseMeta, count: number, out: Output): boolean {
  if (out.json) {
    out.record(response);
    return false;
  }
  for (const w of response.warnings) out.note(`warning: ${w}`);
  for (const d of response.diagnostics) out.note(`${d.severity}: ${d.message}`);
  if (count > 0) return true;
  const shown = response.query.length > 120 ? `${response.query.slice(0, 117)}…` : response.query;
  out.line(`no results for ${JSON.stringify(shown)} (${response.index.files} files, ${response.index.chunks} chunks indexed)`);
  return false;
}

export const command: Command = { spec, run };
