// index_status (src/tools/render.ts renderStatus) says whether a file watcher is live and when
// the tree was last verified, as `cairn serve` and the editor's engine host report it.
import { checkAll } from './check';
import { renderStatus } from '../../src/tools/render';
import type { FreshnessSummary, IndexStatus } from '../../src/core/api';

const status: IndexStatus = {
  root: '/w',
  storeDir: '/s',
  exists: true,
  generation: 3,
  files: 2,
  chunks: 5,
  segments: 1,
  deletedChunks: 0,
  storeBytes: 2048,
  updatedAt: new Date(90_000).toISOString(),
  skippedByReason: {},
  skipped: [],
  languages: { typescript: 2 },
  diagnostics: [],
};

describe('index_status: the watcher and the last verification', () => {
  checkAll<FreshnessSummary, string | undefined>(
    [
      {
        name: 'a live watcher',
        input: { minIntervalMs: 0, watching: true, lastCheckedAtMs: 40_000 },
        expected: 'auto-refresh: incremental, a file watcher is live (changes are indexed as they happen; no query waits for a tree check); tree verified 60 s ago',
      },
      {
        name: 'no watcher, checked at an interval',
        input: { minIntervalMs: 3000, watching: false, lastCheckedAtMs: 98_500 },
        expected: 'auto-refresh: incremental, no file watcher: before queries, at most every 3.0 s; last checked 1.5 s ago',
      },
      {
        name: 'no watcher, never checked',
        input: { minIntervalMs: 0 },
        expected: 'auto-refresh: incremental, no file watcher: before every query; not checked yet by this server',
      },
    ],
    (freshness) => renderStatus(status, freshness, 100_000).split('\n').find((l) => l.startsWith('auto-refresh:')),
  );
});
