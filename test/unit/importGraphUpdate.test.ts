import * as assert from 'node:assert/strict';
import { ImportGraph } from '../../src/core/pack/graph';
import { checkAll } from './check';
import { filesResolvedDuring } from './helpers/resolveSpy';

// A graph made from the one before it (after a save) must be the graph built from nothing.

const FILES = ['src/app.ts', 'src/config/parse.ts', 'src/config/index.ts', 'src/util.ts', 'pkg/models/user.py', 'pkg/util.py'];
type Imports = Array<[string, string[]]>;
const BEFORE: Imports = [
  ['src/app.ts', ['./config/parse', './util']],
  ['src/config/parse.ts', ['./index']],
  ['pkg/models/user.py', ['..util']],
];

/** Every file's edges both ways, as a user of the graph sees them. */
function edges(g: ImportGraph, files: readonly string[]): Record<string, [string[], string[]]> {
  return Object.fromEntries(files.map((f) => [f, [g.importsOf(f), g.importersOf(f)]]));
}

describe('import graph: updated from the previous one', () => {
  checkAll<{ after: Imports; paths?: string[] }, boolean>(
    [
      { name: 'nothing changed', input: { after: BEFORE }, expected: true },
      { name: 'a file gains an import', input: { after: [...BEFORE.slice(0, 2), ['pkg/models/user.py', ['..util']], ['src/util.ts', ['./config']]] }, expected: true },
      { name: 'a file drops an import', input: { after: [['src/app.ts', ['./util']], ...BEFORE.slice(1)] }, expected: true },
      { name: "a file's imports all go", input: { after: BEFORE.slice(1) }, expected: true },
      { name: 'an import changes target', input: { after: [['src/app.ts', ['./config', './util']], ...BEFORE.slice(1)] }, expected: true },
      { name: 'the same paths in another order', input: { after: BEFORE, paths: [...FILES].reverse() }, expected: true },
      { name: 'a file added: built from nothing, still equal', input: { after: BEFORE, paths: [...FILES, 'src/new.ts'] }, expected: true },
    ],
    ({ after, paths }) => {
      const previous = new ImportGraph(new Map(BEFORE), FILES);
      const now = paths ?? FILES;
      const updated = ImportGraph.updated(previous, new Map(after), now);
      const fresh = new ImportGraph(new Map(after), now);
      assert.deepEqual(edges(updated, now), edges(fresh, now));
      // The earlier graph is left as it was: an answer still reading it sees one state.
      assert.deepEqual(edges(previous, FILES), edges(new ImportGraph(new Map(BEFORE), FILES), FILES));
      return true;
    },
  );

  it('resolves only the changed files again when the paths are the same', async () => {
    const previous = new ImportGraph(new Map(BEFORE), FILES);
    const asked = await filesResolvedDuring(() => ImportGraph.updated(previous, new Map([['src/app.ts', ['./util']], ...BEFORE.slice(1)]), [...FILES].reverse()));
    assert.deepEqual(asked, ['src/app.ts']);
  });

  it('ties go the same way whatever order the files were indexed in', () => {
    const paths = ['b/zz.py', 'a/zz.py', 'main.py'];
    const imports = new Map([['main.py', ['zz']]]);
    assert.deepEqual(new ImportGraph(imports, paths).importsOf('main.py'), new ImportGraph(imports, [...paths].reverse()).importsOf('main.py'));
  });
});
