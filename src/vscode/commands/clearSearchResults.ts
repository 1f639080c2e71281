// Cairn: Clear Search Results — empties the Results view (and what is kept for the next reload).
import type { CairnCommand } from './types';

export const clearSearchResultsCommand: CairnCommand = {
  id: 'cairn.clearSearchResults',
  run(deps) {
    deps.lastSearch.clear();
  },
};
