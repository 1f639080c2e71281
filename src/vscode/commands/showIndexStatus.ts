// Cairn: Show Index Status — the status quick pick (also what the status bar item opens).
import { showStatusPicker } from '../views/statusPicker';
import type { CairnCommand } from './types';

export const showIndexStatusCommand: CairnCommand = {
  id: 'cairn.showIndexStatus',
  run(deps) {
    return showStatusPicker(deps.services.engine);
  },
};
