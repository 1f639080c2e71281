// Cairn: Resume Indexing — runs whatever changed while indexing was paused.
import type { CairnCommand } from './types';

export const resumeIndexingCommand: CairnCommand = {
  id: 'cairn.resumeIndexing',
  run(deps) {
    deps.services.engine.resume();
  },
};
