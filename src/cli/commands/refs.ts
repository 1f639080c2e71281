// `cairn refs NAME`: where a name occurs as code (never in comments or strings), grouped by
// file, certain references first; `--callers` groups them by the definition they occur in.
import { intOption, UsageError, type CommandSpec, type ParsedArgs } from '../args';
import type { Command } from '../command';
import { JSON_OPTION, NO_SERVER_OPTION, openQueryEngine, resolveRoot, ROOT_OPTION, STORE_OPTIONS } from '../engineSetup';
import type { Output } from '../output';
import type { ReferenceCallerGroup, ReferenceHit, ReferencesResponse } from '../../core/api';
import { FILTER_OPTIONS, filterValues, refreshMode } from '../filterOptions';

const DEFAULT_LIMIT = 100;

const spec: CommandSpec = {
  name: 'refs',
  usage: 'cairn refs NAME [--root ROOT] [--store DIR] [--kind K] [--path GLOB] [--lang L] [--callers] [--limit N] [--json]',
  maxPositionals: 1,
  options: {
    ...ROOT_OPTION,
    ...STORE_OPTIONS,
    ...FILTER_OPTIONS,
    kind: { type: 'string', valueName: 'K', description: 'the kinds of definition NAME means (function, method, class…): references resolve to those', multiple: true },
    callers: { type: 'boolean', description: 'group the references by the definition they occur in (who uses NAME)' },
    limit: { type: 'string', valueName: 'N', description: `references shown (default ${DEFAULT_LIMIT}); all of them are counted` },
    'no-refresh': { type: 'boolean', description: 'answer from the index as it is, without refreshing first' },
    ...NO_SERVER_OPTION,
    ...JSON_OPTION,
  },
};

async function run(args: ParsedArgs, out: Output): Promise<number> {
  const name = args.positionals[0];
  if (name === undefined || !name.trim()) throw new UsageError('a name is required, e.g. cairn refs parseConfig or cairn refs Linter.verify');
  const root = resolveRoot(args.values);
  const engine = openQueryEngine(args.values, root);
  try {
    const callers = args.values.callers === true;
    const response = await engine.references(name, {
      limit: intOption(args.values, 'limit', 0) ?? DEFAULT_LIMIT,
      ...filterValues(args.values),
      ...(callers ? { callers: true } : {}),
      refresh: refreshMode(args.values),
    });
    if (out.json) {
      out.record(response);
      return 0;
    }
    for (const d of response.diagnostics) out.note(`${d.severity}: ${d.message}`);
    for (const line of summary(response)) out.line(line);
    if (callers) for (const line of formatCallers(response.callers ?? [])) out.line(line);
    else for (const line of formatReferences(response.references)) out.line(line);
    if (!callers && response.truncated) out.line(`… ${response.total - response.references.length} more (--limit N shows more)`);
    return 0;
  } finally {
    await engine.close();
  }
}

/** `12 references to Hono.route (9 certain) in 4 files; defined at src/hono.ts:120:3 (method Hono.route)`. */
function summary(r: ReferencesResponse): string[] {
  const shown = r.qualifier ? `${r.qualifier}.${r.name}` : r.name;
  const lines: string[] = [];
  if (r.note) lines.push(r.note);
  if (r.total > 0) lines.push(`${r.total} reference${r.total === 1 ? '' : 's'} to ${shown} (${r.certain} certain) in ${r.byFile.length} file${r.byFile.length === 1 ? '' : 's'}`);
  if (r.definitions.length > 0) {
    const defs = r.definitions.slice(0, 3).map((d) => `${d.path}:${d.line}:${d.column} (${d.kind} ${d.qualifiedName})`);
    lines.push(`defined at ${defs.join(', ')}${r.definitions.length > 3 ? ` and ${r.definitions.length - 3} more` : ''}`);
  }
  return lines;
}

/** `path:line:col  [certain|name]  context  text`, files separated by a blank line. */
export function formatReferences(refs: readonly ReferenceHit[]): string[] {
  const lines: string[] = [];
  let path: string | undefined;
  for (const r of refs) {
    if (path !== undefined && r.path !== path) lines.push('');
    path = r.path;
    const tags = [r.certainty === 'certain' ? 'certain' : 'name', ...(r.role === 'import' || r.role === 'definition' ? [r.role] : []), ...(r.stale ? ['stale'] : [])];
    lines.push(`${r.path}:${r.line}:${r.column}  [${tags.join(', ')}]  ${r.context || '-'}  ${r.text}`.trimEnd());
  }
  return lines;
}

/** `path:line  kind context  N references (C certain)  lines a, b, c`. */
export function formatCallers(groups: readonly ReferenceCallerGroup[]): string[] {
  return groups.map((g) => {
    const where = g.context ? `${g.kind} ${g.context}` : '(top of file)';
    return `${g.path}:${g.lines[0] ?? 1}  ${where}  ${g.references} reference${g.references === 1 ? '' : 's'} (${g.certain} certain)  lines ${g.lines.join(', ')}`;
  });
}

export const command: Command = { spec, run };
