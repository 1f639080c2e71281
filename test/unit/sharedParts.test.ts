// Names of one query that share a part (`loadUserName`, `saveUserName`) search that part once:
// the hit's breakdown lists it once, with what its repeats would have added together.
import * as assert from 'node:assert/strict';
import { checkAll } from './check';
import { c, searcher } from './helpers/snapshot';

const search = searcher([
  c('src/users.ts:1-3 function renameUser', 'function renameUser(user, name) {\n  user.name = name;\n}'),
  c('src/orders.ts:1-3 function placeOrder', 'function placeOrder(order) {\n  return order;\n}'),
]);

/** The field and term pairs the top hit's breakdown lists more than once. */
function repeated(query: string): string[] {
  const seen = new Map<string, number>();
  for (const p of search(query).hits[0]?.scoreBreakdown ?? []) if (p.kind === 'field') seen.set(`${p.field} ${p.term}`, (seen.get(`${p.field} ${p.term}`) ?? 0) + 1);
  return [...seen].filter(([, n]) => n > 1).map(([k]) => k);
}

describe('a part shared by several names of a query', () => {
  checkAll(
    [
      { name: 'two names sharing `user` and `name`', input: 'loadUserName saveUserName', expected: [] },
      { name: 'three names sharing `user`', input: 'getUser setUser renameUser', expected: [] },
    ],
    repeated,
  );

  it('scores what the repeats add together: the score is the breakdown\'s sum, and more than one name alone', () => {
    const both = search('loadUserName saveUserName').hits[0]!;
    const one = search('loadUserName').hits[0]!;
    assert.equal(both.docid, 'src/users.ts:1-3');
    assert.ok(both.score > one.score, `${both.score} <= ${one.score}`);
    const sum = both.scoreBreakdown.reduce((s, p) => s + p.value, 0);
    assert.ok(Math.abs(sum - both.score) < 1e-9 * both.score, `${sum} != ${both.score}`);
  });
});
