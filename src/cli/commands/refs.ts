// `cairn refs NAME`: where a name occurs as code (never in comments or strings), grouped by
// file, certain references first; `--callers` groups them by the definition they occur in.
// `cairn refs PATH:LINE` asks from the definition whose name is on that line: only what
// resolves to it, and the name matches that may still be it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { intOption, UsageError, type CommandSpec, type ParsedArgs } from '../args';
import type { Command } from '../command';
import { JSON_OPTION, NO_SERVER_OPTION, openQueryEngine, resolveRoot, ROOT_OPTION, STORE_OPTIONS } from '../engineSetup';
import type { Output } from '../output';
import { displayBreadcrumb, type ReferenceCallerGroup, type ReferenceHit, type ReferencesResponse } from '../../core/api';
import { placeOf } from '../../core/engineApi';
import { currentContext } from '../../command/context';
import { FILTER_OPTIONS, filterValues, refreshMode } from '../filterOptions';

const DEFAULT_LIMIT = 100;

const spec: CommandSpec = {
  name: 'refs',
  usage: 'cairn refs NAME|PATH:LINE[:COL] [--root ROOT] [--store DIR] [--kind K] [--path GLOB] [--lang L] [--callers] [--limit N] [--json]',
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
  if (name === undefined || !name.trim()) throw new UsageError('a name is required, e.g. cairn refs parseConfig, cairn refs Linter.verify or cairn refs src/config.ts:12');
  const root = resolveRoot(args.values);
  const place = placeOf(name);
  const engine = openQueryEngine(args.values, root);
  try {
    const callers = args.values.callers === true;
    const response = await engine.references(name, {
      ...(place ? { definition: { ...place, path: rootRelative(root, place.path) } } : {}),
      limit: intOption(args.values, 'limit', 0) ?? DEFAULT_LIMIT,
      ...filterValues(args.values),
      ...(callers ? { callers: true } : {}),
      refresh: refreshMode(args.values),
    });
    // A place with no definition's name is the question's fault: said, and not an answer.
    const failed = response.diagnostics.some((d) => d.code === 'no-definition-here');
    if (out.json) {
      out.record(response);
      return failed ? 1 : 0;
    }
    for (const d of response.diagnostics) out.note(`${d.severity}: ${d.message}`);
    if (failed) return 1;
    for (const line of summary(response)) out.line(line);
    if (callers) for (const line of formatCallers(response.callers ?? [])) out.line(line);
    else for (const line of formatReferences(response.references, response.definitions.length > 1)) out.line(line);
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

/**
 * A place's path as the index has it: relative to the root, whether written relative to the
 * working directory, to the root, or absolute.
 */
function rootRelative(root: string, given: string): string {
  const cwd = currentContext()?.cwd ?? process.cwd();
  for (const candidate of [path.resolve(cwd, given), path.resolve(root, given)]) {
    const rel = path.relative(root, candidate);
    if (!rel.startsWith('..') && !path.isAbsolute(rel) && fs.existsSync(candidate)) return rel.split(path.sep).join('/');
  }
  return given;
}

/**
 * `path:line:col  [certain|name]  context  text`, files separated by a blank line; with several
 * definitions, a certain reference says which it resolves to (`[certain → src/a.ts:3]`).
 */
export function formatReferences(refs: readonly ReferenceHit[], several = false): string[] {
  const lines: string[] = [];
  let path: string | undefined;
  for (const r of refs) {
    if (path !== undefined && r.path !== path) lines.push('');
    path = r.path;
    const to = several && r.resolvesTo && !(r.resolvesTo.path === r.path && r.resolvesTo.line === r.line) ? ` → ${r.resolvesTo.path}:${r.resolvesTo.line}` : '';
    const tags = [r.certainty === 'certain' ? `certain${to}` : 'name', ...(r.role === 'import' || r.role === 'definition' ? [r.role] : []), ...(r.stale ? ['stale'] : [])];
    lines.push(`${r.path}:${r.line}:${r.column}  [${tags.join(', ')}]  ${displayBreadcrumb(r.context, r.language) || '-'}  ${r.text}`.trimEnd());
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
