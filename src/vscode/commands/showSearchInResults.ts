// Show All Results in the Results View (Ctrl+Enter while Cairn: Search is open): the open search
// pick's results move into the Results view, as its title button and last item do.
import { showOpenSearchInResults } from '../views/searchPicker';
import type { CairnCommand } from './types';

export const showSearchInResultsCommand: CairnCommand = {
  id: 'cairn.showSearchInResults',
  run() {
    return showOpenSearchInResults();
  },
};
