// Items grouped by a key (core/groupBy.ts): groups in the order of their first item, items in
// their own order, items without a key left out.
import { checkAll } from './check';
import { groupBy } from '../../src/core/groupBy';

describe('groupBy', () => {
  checkAll<string[], Array<[string, string[]]>>(
    [
      { name: 'by folder, first seen first', input: ['b/x.ts', 'a/y.ts', 'b/z.ts'], expected: [['b', ['b/x.ts', 'b/z.ts']], ['a', ['a/y.ts']]] },
      { name: 'items without a key are left out', input: ['top.ts', 'a/y.ts'], expected: [['a', ['a/y.ts']]] },
      { name: 'nothing', input: [], expected: [] },
    ],
    (paths) => [...groupBy(paths, (p) => (p.includes('/') ? p.slice(0, p.indexOf('/')) : undefined))],
  );
});
