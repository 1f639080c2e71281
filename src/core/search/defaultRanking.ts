// The ranking parameters a search uses unless told otherwise (eval variants try others).
import { DEFAULT_STOP_WORD_WEIGHT } from './compiled';
import type { RankingParams } from './types';

export const DEFAULT_RANKING: RankingParams = {
  exactDefinition: 2.5,
  definition: 1.2,
  test: 0.6,
  vendored: 0.5,
  codeFirstProse: 0.3,
  codeFirstConfig: 0.75,
  autoCodeFirstProse: 0.4,
  joinedWords: 0.3,
  joinedName: 1.2,
  maxPerFile: 3,
  stopWords: DEFAULT_STOP_WORD_WEIGHT,
  fileOtherChunks: 0.5,
  fileChunkDecay: 0.5,
  fileName: 1.25,
  fileCoverage: 0,
  hybridRipgrep: 0.1,
  pastCommit: 1.2,
  pastCommitWords: 0.7,
};
