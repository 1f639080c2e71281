// Filters typed into a query: `lang:ts kind:function scope:docs` (and, for the editor's search
// box, `path:src/**`). Lifted out of the text into search options before the text is read as a
// query, for every front end alike, so `cairn search "retry lang:ts"`, MCP and the editor's
// search agree on what the words mean.
import type { Scope, SearchFilters } from './types';

export interface LiftedFilters {
  /** The text without the filter tokens. */
  text: string;
  filters: SearchFilters;
  /** The filters found, as typed (`lang:ts`), for titles and tooltips. */
  labels: string[];
}

const SCOPES: readonly string[] = ['auto', 'code', 'docs', 'all'];

function values(raw: string): string[] {
  return raw.split(',').map((v) => v.trim()).filter(Boolean);
}

/**
 * Lifts `lang:`/`language:`, `kind:` and `scope:` tokens out of `input` (and `path:` when
 * `paths` is set: in the engine's query language `path:` is a field, which the editor's search
 * box reads as a glob instead). An unknown scope stays in the text.
 */
export function liftInlineFilters(input: string, options: { paths?: boolean } = {}): LiftedFilters {
  const filter = options.paths ? /^(lang|language|kind|path|scope):(.+)$/i : /^(lang|language|kind|scope):(.+)$/i;
  const rest: string[] = [];
  const filters: SearchFilters = {};
  const labels: string[] = [];
  for (const token of input.trim().split(/\s+/).filter(Boolean)) {
    const m = filter.exec(token);
    if (!m) {
      rest.push(token);
      continue;
    }
    const name = (m[1] as string).toLowerCase();
    const value = m[2] as string;
    if (name === 'scope') {
      const scope = value.toLowerCase();
      if (!SCOPES.includes(scope)) {
        rest.push(token);
        continue;
      }
      filters.scope = scope as Scope;
    } else if (name === 'kind') {
      filters.kinds = [...(filters.kinds ?? []), ...values(value).map((v) => v.toLowerCase())];
    } else if (name === 'path') {
      filters.paths = [...(filters.paths ?? []), ...values(value)];
    } else {
      filters.languages = [...(filters.languages ?? []), ...values(value).map((v) => v.toLowerCase())];
    }
    labels.push(`${name === 'language' ? 'lang' : name}:${value}`);
  }
  return { text: rest.join(' '), filters, labels };
}

/** Options with a query's lifted filters added: lists are joined, a scope given as an option wins. */
export function withLiftedFilters<O extends SearchFilters>(options: O, lifted: SearchFilters): O {
  const out: O = { ...options };
  if (lifted.languages) out.languages = [...(options.languages ?? []), ...lifted.languages];
  if (lifted.kinds) out.kinds = [...(options.kinds ?? []), ...lifted.kinds];
  if (lifted.paths) out.paths = [...(options.paths ?? []), ...lifted.paths];
  if (lifted.scope && options.scope === undefined) out.scope = lifted.scope;
  return out;
}
