// What an answer given during a refresh says (src/core/engine/pendingFiles.ts): the number of
// files still pending, and `stale` on hits from them (a folder named pending covers its files),
// while a hit already stale keeps its own reason.
import { checkAll } from './check';
import { markPending, refreshingFiles, type SearchHit, type SearchResponse } from '../../src/core/api';

function hit(path: string, over: Partial<SearchHit> = {}): SearchHit {
  return { docid: `${path}#1`, id: '1', path, startLine: 1, endLine: 2, language: 'typescript', kind: 'function', symbol: 'f', context: '', score: 1, scoreBreakdown: [], preview: '', ...over } as SearchHit;
}

function answer(paths: string[], staleModified: string[] = []): SearchResponse {
  return { query: 'q', total: paths.length, tookMs: 1, warnings: [], diagnostics: [], index: { files: 10, chunks: 20, fresh: true, generation: 3 }, results: paths.map((p) => hit(p, staleModified.includes(p) ? { stale: true, staleReason: 'deleted' } : {})) };
}

const shape = (r: SearchResponse) => ({ pending: r.index.pending, fresh: r.index.fresh, stale: r.results.map((h) => `${h.path}${h.stale ? ` stale:${h.staleReason ?? 'pending'}` : ''}`) });

describe('answers during a refresh: pending files counted, their hits stale', () => {
  checkAll<{ hits: string[]; pending: string[]; alreadyStale?: string[] }, ReturnType<typeof shape>>(
    [
      { name: 'nothing pending: the answer as it is', input: { hits: ['a.ts'], pending: [] }, expected: { pending: undefined, fresh: true, stale: ['a.ts'] } },
      { name: 'a hit from a pending file is stale; others are not', input: { hits: ['a.ts', 'b.ts'], pending: ['b.ts', 'c.ts'] }, expected: { pending: 2, fresh: false, stale: ['a.ts', 'b.ts stale:pending'] } },
      { name: 'a pending folder covers the files in it, not a sibling with the same prefix', input: { hits: ['lib/x.ts', 'lib2/y.ts'], pending: ['lib'] }, expected: { pending: 1, fresh: false, stale: ['lib/x.ts stale:pending', 'lib2/y.ts'] } },
      { name: 'a hit already stale keeps its reason', input: { hits: ['a.ts'], pending: ['a.ts'], alreadyStale: ['a.ts'] }, expected: { pending: 1, fresh: false, stale: ['a.ts stale:deleted'] } },
    ],
    ({ hits, pending, alreadyStale }) => shape(markPending(answer(hits, alreadyStale), pending)),
  );

  checkAll<number, string>(
    [
      { input: 1, expected: 'refreshing 1 file' },
      { input: 1500, expected: 'refreshing 1,500 files' },
    ],
    refreshingFiles,
  );
});
