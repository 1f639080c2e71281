// `cairn context search|get`: the context registry of guidance packs under .agent-context/.
// `search` prints ranked entry metadata (never content); `get` prints an entry's content with
// its provenance, hashes and cache status. Commands found in the content are listed as
// untrusted suggestions, never run.
import { choiceOption, intOption, UsageError, type CommandSpec, type ParsedArgs } from '../args';
import type { Command } from '../command';
import type { FetchMode, RegistryFetchResult, RegistrySearchResponse } from '../../core/api';
import type { Output } from '../output';
import { noteDiagnostics, openRegistry, REGISTRY_ROOT_OPTION } from '../registrySetup';

const SUBCOMMAND_OPTIONS: Readonly<Record<'search' | 'get', readonly string[]>> = {
  search: ['root', 'json', 'limit', 'language'],
  get: ['root', 'json', 'mode', 'file', 'include-stale', 'revision', 'source'],
};

const spec: CommandSpec = {
  name: 'context',
  usage:
    'cairn context search "QUERY" [--root ROOT] [--limit N] [--language L] [--json] | cairn context get ID [--root ROOT] [--mode entry|file|full] [--file F] [--include-stale] [--revision R] [--source S] [--json]',
  maxPositionals: 2,
  options: {
    ...REGISTRY_ROOT_OPTION,
    limit: { type: 'string', valueName: 'N', description: 'search: number of results (default 10, at most 100)' },
    language: { type: 'string', valueName: 'L', description: 'search: only entries in this language' },
    mode: { type: 'string', valueName: 'MODE', description: 'get: entry (the primary file, default), file (one file) or full (all)' },
    file: { type: 'string', valueName: 'F', description: 'get: the file to return in file mode' },
    'include-stale': { type: 'boolean', description: 'get: count notes from older versions/revisions as available' },
    revision: { type: 'string', valueName: 'R', description: 'get: fail with stale-revision unless the entry is at this revision' },
    source: { type: 'string', valueName: 'S', description: 'get: take the entry from this source id' },
    json: { type: 'boolean', description: 'print the result as one JSON object' },
  },
};

async function run(args: ParsedArgs, out: Output): Promise<number> {
  const [sub, target] = args.positionals;
  if (sub !== 'search' && sub !== 'get') {
    throw new UsageError(sub === undefined ? 'missing subcommand: search or get' : `unknown subcommand '${sub}': use search or get`);
  }
  for (const [name, value] of Object.entries(args.values)) {
    if (value !== undefined && name !== 'help' && !SUBCOMMAND_OPTIONS[sub].includes(name)) throw new UsageError(`--${name} is not an option of context ${sub}`);
  }
  if (target === undefined || !target.trim()) throw new UsageError(sub === 'search' ? 'missing QUERY' : 'missing entry ID');
  return sub === 'search' ? search(target, args, out) : get(target, args, out);
}

async function search(query: string, args: ParsedArgs, out: Output): Promise<number> {
  const limit = intOption(args.values, 'limit', 1);
  const language = typeof args.values.language === 'string' ? args.values.language : undefined;
  const opened = openRegistry(args.values);
  const response = await opened.registry.search(query, { ...(limit === undefined ? {} : { limit }), ...(language ? { language } : {}) });
  response.diagnostics.unshift(...opened.diagnostics);
  if (out.json) out.record(response);
  else printSearch(out, response);
  return 0;
}

async function get(id: string, args: ParsedArgs, out: Output): Promise<number> {
  const mode = choiceOption<FetchMode>(args.values, 'mode', ['entry', 'file', 'full'], 'entry');
  const file = typeof args.values.file === 'string' ? args.values.file : undefined;
  if (mode === 'file' && file === undefined) throw new UsageError('--mode file needs --file F');
  if (mode !== 'file' && file !== undefined) throw new UsageError('--file is only used with --mode file');
  const revision = typeof args.values.revision === 'string' ? args.values.revision : undefined;
  const sourceId = typeof args.values.source === 'string' ? args.values.source : undefined;
  const opened = openRegistry(args.values);
  const result = await opened.registry.get(id, {
    mode,
    includeStale: args.values['include-stale'] === true,
    ...(file === undefined ? {} : { file }),
    ...(revision === undefined ? {} : { revision }),
    ...(sourceId === undefined ? {} : { sourceId }),
  });
  result.diagnostics.unshift(...opened.diagnostics);
  if (out.json) out.record(result);
  else printFetch(out, result);
  return result.ok ? 0 : 1;
}

function printSearch(out: Output, response: RegistrySearchResponse): void {
  noteDiagnostics(out, response.diagnostics);
  for (const hit of response.results) {
    out.line(`${hit.id}  ${hit.score.toFixed(2)}  ${hit.title}  [${hit.language}, ${hit.trust}, ${hit.sourceId} ${hit.packageVersion}@${hit.revision}]`);
  }
  out.note(`${response.results.length} of ${response.total} entries; cache ${response.cache.status}; ${response.tookMs} ms`);
}

function printFetch(out: Output, result: RegistryFetchResult): void {
  noteDiagnostics(out, result.diagnostics);
  if (result.entry && result.version) {
    const from = result.provenance?.kind === 'remote' ? result.provenance.url : result.provenance?.path;
    out.note(`${result.entry.id} ${result.version.packageVersion}@${result.version.revision} from ${result.version.sourceId} (${from}); trust ${result.entry.trust}; cache ${result.cache.status}; working tree ${result.freshness.workingTree}`);
    out.note(result.trust.notice);
  }
  for (const file of result.files) {
    out.line(`==> ${file.path} (${file.role}, sha256 ${file.sha256.slice(0, 12)}) <==`);
    out.block(file.content.replace(/\n$/, ''));
  }
  for (const omitted of result.omittedFiles) out.note(`omitted ${omitted.path}: ${omitted.reason}`);
  for (const c of result.suggestedCommands) out.note(`untrusted suggestion (not run) ${c.file}:${c.line}: ${c.command}`);
  if (result.annotationAvailable || result.annotations.stale.count) {
    out.note(`notes: ${result.annotations.current} current, ${result.annotations.stale.count} stale (cairn annotations ${result.id}${result.annotations.stale.count ? ' --include-stale' : ''})`);
  }
}

export const command: Command = { spec, run };
