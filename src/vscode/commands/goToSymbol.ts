// Cairn: Go to Symbol — the symbol table as you type; an optional string argument prefills it.
import { showSymbolPicker } from '../views/symbolPicker';
import type { CairnCommand } from './types';

export const goToSymbolCommand: CairnCommand = {
  id: 'cairn.goToSymbol',
  run(deps, name) {
    showSymbolPicker(deps, typeof name === 'string' ? name : undefined);
  },
};
