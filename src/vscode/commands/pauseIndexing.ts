// Cairn: Pause Indexing — stops the running refresh; changes keep being collected for Resume.
import type { CairnCommand } from './types';

export const pauseIndexingCommand: CairnCommand = {
  id: 'cairn.pauseIndexing',
  run(deps) {
    deps.services.engine.pause();
  },
};
