// A references lookup judged once per index generation: the next ask of the same name over the
// same view answers from what was judged, a refresh starts over, the options that choose
// definitions and occurrences are part of what is asked, and the kept occurrences are bounded.
import * as assert from 'node:assert/strict';
import { checkAll } from './check';
import { brief } from './helpers/refsOf';
import { TempWorkspace } from './helpers/workspace';
import { JudgedLookups, lookupKey } from '../../src/core/search/judgedLookups';
import type { JudgedLookup, Occurrence } from '../../src/core/search/refOccurrences';

/** A lookup of `n` occurrences (their content does not matter to the bound). */
const lookupOf = (n: number): JudgedLookup => ({ found: [], occurrences: Array.from({ length: n }, () => ({}) as Occurrence) });

describe('JudgedLookups: what is kept', () => {
  type Step = ['set', string, number] | ['get', string];
  checkAll<Step[], { kept: string[]; size: number }>(
    [
      { name: 'lookups under the bound are all kept', input: [['set', 'a', 3], ['set', 'b', 4]], expected: { kept: ['a', 'b'], size: 7 } },
      { name: 'past the bound the least recently asked goes', input: [['set', 'a', 4], ['set', 'b', 4], ['get', 'a'], ['set', 'c', 4]], expected: { kept: ['a', 'c'], size: 8 } },
      { name: 'a lookup over the bound alone is not kept, and takes nothing out', input: [['set', 'a', 4], ['set', 'huge', 11]], expected: { kept: ['a'], size: 4 } },
      { name: 'the same key again replaces it', input: [['set', 'a', 4], ['set', 'a', 6]], expected: { kept: ['a'], size: 6 } },
    ],
    (steps) => {
      const kept = new JudgedLookups<JudgedLookup>(10);
      for (const step of steps) {
        if (step[0] === 'set') kept.set(step[1], lookupOf(step[2]));
        else kept.get(step[1]);
      }
      return { kept: ['a', 'b', 'c', 'huge'].filter((k) => kept.get(k) !== undefined), size: kept.size };
    },
  );

  it('tells apart lookups whose kinds, paths or languages differ', () => {
    const keys = new Set([lookupKey('x', undefined, {}), lookupKey('x', 'A', {}), lookupKey('x', undefined, { kinds: ['method'] }), lookupKey('x', undefined, { paths: ['src/'] }), lookupKey('x', undefined, { languages: ['go'] }), lookupKey('x', undefined, { limit: 5, lineText: false })]);
    assert.equal(keys.size, 5, 'limit and lineText do not change what is judged; the rest do');
  });
});

describe('references asked again over the same index', function () {
  this.timeout(60000);
  let ws: TempWorkspace;
  beforeEach(async () => {
    ws = new TempWorkspace({
      'src/a.ts': 'export function pick(n: number): number {\n  return n;\n}\n',
      'src/b.ts': "import { pick } from './a';\nexport const one = pick(1);\n",
      'src/c.ts': "import { pick } from './a';\nexport const two = pick(2);\n",
    });
    await ws.engine().refresh();
  });
  afterEach(() => ws.dispose());

  it('answers the same, and from one definition only what resolves to it', async () => {
    const engine = ws.engine();
    const first = (await engine.references('pick', { refresh: 'never' })).references.map(brief);
    assert.deepEqual((await engine.references('pick', { refresh: 'never' })).references.map(brief), first);
    assert.ok(first.includes('src/b.ts:2:20 code certain → src/a.ts:1'), first.join('\n'));
    const fromDefinition = await engine.references('src/a.ts:1', { refresh: 'never' });
    assert.deepEqual(fromDefinition.references.map(brief), first, 'every reference resolves to the one definition');
    const inC = await engine.references('pick', { refresh: 'never', paths: ['src/c.ts'] });
    assert.deepEqual(inC.references.map((r) => r.path), ['src/c.ts', 'src/c.ts']);
    assert.equal((await engine.references('pick', { refresh: 'never' })).total, first.length, 'a narrower ask did not replace the whole one');
  });

  it("a caller reordering or emptying an answer's lists does not change the next answer", async () => {
    const engine = ws.engine();
    const first = await engine.references('pick', { refresh: 'never' });
    const expected = { definitions: first.definitions.map((d) => `${d.path}:${d.line}`), refs: first.references.map(brief) };
    first.definitions.length = 0;
    first.references.reverse();
    const again = await engine.references('pick', { refresh: 'never' });
    assert.deepEqual({ definitions: again.definitions.map((d) => `${d.path}:${d.line}`), refs: again.references.map(brief) }, expected);
    assert.equal(expected.definitions.length, 1);
  });

  it('judges again after a refresh: a file that now defines the name itself resolves to its own', async () => {
    const engine = ws.engine();
    const before = (await engine.references('pick', { refresh: 'never' })).references.map(brief);
    assert.ok(before.includes('src/b.ts:2:20 code certain → src/a.ts:1'), before.join('\n'));
    ws.write('src/b.ts', 'function pick(n: number): number {\n  return -n;\n}\nexport const one = pick(1);\n');
    await engine.refresh();
    const after = (await engine.references('pick', { refresh: 'never' })).references.map(brief);
    assert.ok(after.includes('src/b.ts:4:20 code certain → src/b.ts:1'), after.join('\n'));
    assert.ok(!after.some((r) => r.startsWith('src/b.ts') && r.endsWith('→ src/a.ts:1')), after.join('\n'));
  });
});
