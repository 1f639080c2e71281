// Cairn: Search. With no argument (or a string) it opens the search-as-you-type quick pick;
// `{ query, target: 'view' }` runs the search straight into the Results view (used by other
// features and by tests).
import { searchFor, showSearchPicker } from '../views/searchPicker';
import type { CairnCommand } from './types';

interface SearchArgs {
  query: string;
  target?: 'picker' | 'view';
}

export const searchCommand: CairnCommand = {
  id: 'cairn.search',
  async run(deps, arg) {
    const args: SearchArgs | undefined = typeof arg === 'string' ? { query: arg } : (arg as SearchArgs | undefined);
    if (args?.target === 'view') {
      const result = await searchFor(deps, args.query);
      if (!result) return undefined;
      deps.lastSearch.set(args.query.trim(), result);
      await deps.revealResults(false);
      return result;
    }
    // The picker lives on after this returns; the command does not wait for it to close.
    void showSearchPicker(deps, args?.query ?? '');
    return undefined;
  },
};
