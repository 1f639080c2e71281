import * as assert from 'node:assert/strict';
import { checkAll } from './check';
import { formatWorst, overlaps, scoreName, summariseLs, unconfirmedCertain, type LsLocation } from '../../src/eval/lsRefs';
import type { CairnReference, DefinitionPlace } from '../../src/eval/refsCheck';

/** A one-line range as a language server reports it (1-based here; end one past the name). */
const loc = (path: string, line: number, column: number, length: number): LsLocation => ({ path, line, column, endLine: line, endColumn: column + length });
const ref = (path: string, line: number, column: number, certain: boolean, role = 'code', reason = certain ? 'imports a.ts' : 'no import of a.ts'): CairnReference => ({ path, line, column, certain, role, reason });

describe('refs vs a language server: where a reference matches a location', () => {
  checkAll<{ at: [string, number, number]; loc: LsLocation }, boolean>(
    [
      { name: 'the same range', input: { at: ['a.ts', 3, 5], loc: loc('a.ts', 3, 5, 6) }, expected: true },
      { name: 'the server includes a prefix (`this.parse` as one range)', input: { at: ['a.ts', 3, 10], loc: loc('a.ts', 3, 5, 11) }, expected: true },
      { name: 'the server marks part of the name', input: { at: ['a.ts', 3, 5], loc: loc('a.ts', 3, 8, 2) }, expected: true },
      { name: 'ends where the name starts: no overlap', input: { at: ['a.ts', 3, 5], loc: loc('a.ts', 3, 1, 4) }, expected: false },
      { name: 'starts one past the name: no overlap', input: { at: ['a.ts', 3, 5], loc: loc('a.ts', 3, 11, 3) }, expected: false },
      { name: 'another line', input: { at: ['a.ts', 4, 5], loc: loc('a.ts', 3, 5, 6) }, expected: false },
      { name: 'another file', input: { at: ['b.ts', 3, 5], loc: loc('a.ts', 3, 5, 6) }, expected: false },
      { name: 'a range over lines holding the name', input: { at: ['a.ts', 4, 2], loc: { path: 'a.ts', line: 3, column: 20, endLine: 5, endColumn: 1 } }, expected: true },
    ],
    ({ at: [path, line, column], loc: l }) => overlaps({ path, line, column }, 6, l),
  );
});

describe('refs vs a language server: one name scored', () => {
  // `render` is defined at a.ts:2:17; Cairn lists the definition, an import, two calls, and a
  // same-named member of another class it wrongly calls certain, plus a name match the server confirms.
  const definition: DefinitionPlace = { path: 'a.ts', line: 2, column: 17, kind: 'function' };
  const cairn = [
    ref('a.ts', 2, 17, true, 'definition', 'definition'),
    ref('b.ts', 1, 10, true, 'import'),
    ref('b.ts', 5, 3, true),
    ref('b.ts', 9, 7, true),
    ref('c.ts', 4, 12, true, 'member', 'same file'),
    ref('d.ts', 8, 1, false),
  ];
  const server = [loc('a.ts', 2, 17, 6), loc('b.ts', 1, 10, 6), loc('b.ts', 5, 3, 6), loc('b.ts', 9, 7, 6), loc('d.ts', 8, 1, 6), loc('e.ts', 3, 3, 6)];

  it('counts certain references (the definition left out) the server reports, and the server’s references Cairn returns', () => {
    const s = scoreName('render', definition, cairn, { locations: server });
    assert.deepEqual(
      { answered: s.answered, certain: s.certain, confirmed: s.confirmed, disconfirmed: s.disconfirmed.map((r) => `${r.path}:${r.line}`), byRole: s.byRole, ls: s.lsReferences, found: s.found, foundCertain: s.foundCertain, missed: s.missed.map((l) => l.path) },
      { answered: true, certain: 4, confirmed: 3, disconfirmed: ['c.ts:4'], byRole: { import: { certain: 1, confirmed: 1 }, code: { certain: 2, confirmed: 2 }, member: { certain: 1, confirmed: 0 } }, ls: 5, found: 4, foundCertain: 3, missed: ['e.ts'] },
    );
  });

  it('an answer without the definition is about something else: left out of the summary', () => {
    const good = scoreName('render', definition, cairn, { locations: server });
    const lost = scoreName('render', definition, cairn, { locations: server.slice(1) });
    assert.equal(lost.answered, false);
    const s = summariseLs([good, lost]);
    assert.deepEqual(
      { names: s.names, answered: s.answered, certain: s.certain, confirmed: s.confirmed, precision: s.precision, recall: s.recall, certainRecall: s.certainRecall, member: s.byRole.member },
      { names: 2, answered: 1, certain: 4, confirmed: 3, precision: 0.75, recall: 0.8, certainRecall: 0.6, member: { certain: 1, confirmed: 0, precision: 0 } },
    );
  });

  it('a certain reference the references miss is confirmed when go-to-definition at it lands on the definition', () => {
    // c.ts:4:12 is `utils.render()` through `exports.render = render`: tsserver's references miss it.
    const asked = unconfirmedCertain('render', definition, cairn, server);
    assert.deepEqual(asked.map((r) => `${r.path}:${r.line}:${r.column}`), ['c.ts:4:12']);
    const toDefinition = scoreName('render', definition, cairn, { locations: server, definitionsAt: [{ path: 'c.ts', line: 4, column: 12, locations: [loc('a.ts', 2, 17, 6)] }] });
    assert.deepEqual({ confirmed: toDefinition.confirmed, byDefinition: toDefinition.confirmedByDefinition, disconfirmed: toDefinition.disconfirmed.length }, { confirmed: 4, byDefinition: 1, disconfirmed: 0 });
    // Landing elsewhere (another `render`) confirms nothing.
    const elsewhere = scoreName('render', definition, cairn, { locations: server, definitionsAt: [{ path: 'c.ts', line: 4, column: 12, locations: [loc('c.ts', 1, 10, 6)] }] });
    assert.deepEqual({ confirmed: elsewhere.confirmed, byDefinition: elsewhere.confirmedByDefinition }, { confirmed: 3, byDefinition: 0 });
    assert.equal(summariseLs([toDefinition, elsewhere]).confirmedByDefinition, 1);
  });

  it('lists the names with the most unconfirmed certain references first, with Cairn’s reason', () => {
    const one = scoreName('render', definition, cairn, { locations: server });
    const clean = scoreName('render2', { ...definition, line: 9 }, [], { locations: [loc('a.ts', 9, 17, 7)] });
    const two = scoreName('parse', { path: 'p.ts', line: 1, column: 1, kind: 'function' }, [ref('q.ts', 2, 2, true), ref('q.ts', 3, 2, true)], { locations: [loc('p.ts', 1, 1, 5)] });
    two.disconfirmed[0]!.text = 'x.parse()';
    assert.deepEqual(formatWorst([one, clean, two], 5, 1), [
      'parse (function at p.ts:1:1): 2 of 2 certain not confirmed',
      '    q.ts:2:2 code, imports a.ts  x.parse()',
      'render (function at a.ts:2:17): 1 of 4 certain not confirmed',
      '    c.ts:4:12 member, same file',
    ]);
  });
});
