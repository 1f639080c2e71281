// Opens a result's exact range (what clicking a Results item does). Not in the command palette.
import { spanFromArg, type CairnCommand } from './types';

export const openSpanCommand: CairnCommand = {
  id: 'cairn.openSpan',
  async run(deps, arg) {
    const span = spanFromArg(arg);
    if (span) await deps.services.openSpan(span);
  },
};
