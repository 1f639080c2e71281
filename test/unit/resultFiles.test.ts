// The Results view's files come in the order the search pick (and `cairn search`, and MCP's
// `search`) ranked the hits: a file where its best hit is, its own hits in line order.
import { checkAll } from './check';
import { groupByFile } from '../../src/vscode/resultFiles';
import type { FolderHit } from '../../src/vscode/services';
import type { SearchHit } from '../../src/core/api';

/** A hit written `folder:path:line`, ranked by its place in the list. */
function hit(ref: string, rank: number): FolderHit<SearchHit> {
  const [folder, path, line] = ref.split(':') as [string, string, string];
  const startLine = Number(line);
  return {
    docid: `${path}:${startLine}-${startLine}`, id: `${folder}/${path}#${startLine}`, path, startLine, endLine: startLine, score: 100 - rank, scoreBreakdown: [],
    symbol: '', kind: 'function', language: 'typescript', context: '', preview: '', folder, folderUri: `file:///${folder}`,
  };
}

describe('Results view files', () => {
  checkAll(
    [
      { name: 'the file of the best hit first, even when another file has more hits', input: ['a:app/models.py:9', 'a:src/greeter.ts:3', 'a:src/greeter.ts:7', 'a:docs/guide.md:1'], expected: ['a:app/models.py 9', 'a:src/greeter.ts 3,7', 'a:docs/guide.md 1'] },
      { name: 'a file\'s hits in line order, the file where its best hit ranked', input: ['a:x.ts:40', 'a:y.ts:2', 'a:x.ts:5'], expected: ['a:x.ts 5,40', 'a:y.ts 2'] },
      { name: 'the same path in two folders is two files', input: ['a:index.ts:1', 'b:index.ts:1', 'a:index.ts:8'], expected: ['a:index.ts 1,8', 'b:index.ts 1'] },
      { name: 'no hits, no files', input: [], expected: [] },
    ],
    (refs: string[]) => groupByFile(refs.map(hit)).map((f, i) => `${f.folder}:${f.path} ${f.hits.map((h) => h.startLine).join(',')}${f.rank === i ? '' : ` rank ${f.rank}`}`),
  );
});
