// The stages `cairn index --timings` reports, as plain data every front end may read.

/** Stages in the order an index build meets them; `wait-*` is the index thread idle. */
export const STAGES = [
  'discover',
  'read',
  'hash',
  'parse',
  'extract',
  'definitions',
  'imports',
  'occurrences',
  'chunk',
  'analyze',
  'transfer',
  'build',
  'encode',
  'checksums',
  'write',
  'commit',
  'merge',
  'wait-read',
  'wait-chunks',
] as const;

export type Stage = (typeof STAGES)[number];

/** Milliseconds per stage. */
export type StageTimes = Partial<Record<Stage, number>>;
