// Inline filters typed into the search box: `lang:ts kind:function path:src/** scope:docs`.
// They are lifted out of the text into SearchOptions; what is left is the engine's own query
// language (terms, field:term, +required, -excluded, prefix*, fuzzy~1, boost^2).
import type { Scope, SearchFilters } from '../core/api';

export interface ParsedSearch {
  /** The query without the filter tokens. */
  text: string;
  filters: SearchFilters;
  /** Human-readable list of the filters found (`lang:ts`), for titles and tooltips. */
  labels: string[];
}

const FILTER = /^(lang|language|kind|path|scope):(.+)$/i;
const SCOPES: readonly string[] = ['auto', 'code', 'docs', 'all'];

function values(raw: string): string[] {
  return raw.split(',').map((v) => v.trim()).filter(Boolean);
}

export function parseSearchInput(input: string): ParsedSearch {
  const rest: string[] = [];
  const filters: SearchFilters = {};
  const labels: string[] = [];
  for (const token of input.trim().split(/\s+/).filter(Boolean)) {
    const m = FILTER.exec(token);
    if (!m) {
      rest.push(token);
      continue;
    }
    const name = (m[1] as string).toLowerCase();
    const value = m[2] as string;
    if (name === 'scope') {
      const scope = value.toLowerCase();
      // Unknown scopes stay in the query text, where the engine will treat them as terms.
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
