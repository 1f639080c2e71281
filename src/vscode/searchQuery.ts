// Inline filters typed into the search box: `lang:ts kind:function path:src/** scope:docs`.
// The engine lifts `lang:`, `kind:` and `scope:` from any query; the search box also reads
// `path:` as a glob, and shows what it lifted in titles and tooltips.
import { liftInlineFilters, type SearchFilters } from '../core/api';

export interface ParsedSearch {
  /** The query without the filter tokens. */
  text: string;
  filters: SearchFilters;
  /** Human-readable list of the filters found (`lang:ts`), for titles and tooltips. */
  labels: string[];
}

export function parseSearchInput(input: string): ParsedSearch {
  return liftInlineFilters(input, { paths: true });
}
