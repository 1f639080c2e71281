// A store kept inside the root it indexes is never a candidate: a refresh would otherwise
// index its own manifest and state files, which change with every refresh, and never settle.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { discoveryWithoutStore } from '../../src/core/discovery/withoutStore';
import { checkAll } from './check';
import { TempWorkspace } from './helpers/workspace';

describe('a store inside the root', function () {
  this.timeout(60000);

  it('is not indexed, and a second refresh finds nothing changed', async () => {
    const ws = new TempWorkspace({ 'src/a.ts': 'export function a() { return 1; }\n', 'notes.json': '{"k": 1}\n' });
    try {
      const engine = ws.engine({ storeDir: path.join(ws.root, '.cairn-index') });
      const first = await engine.refresh();
      assert.equal(first.files, 2);
      for (let i = 0; i < 2; i++) {
        const again = await engine.refresh();
        assert.deepEqual([again.added, again.changed, again.removed, again.files], [0, 0, 0, 2]);
      }
    } finally {
      await ws.dispose();
    }
  });

  checkAll(
    [
      { name: 'a store in a folder of the root is excluded', input: { root: '/r', store: '/r/.cache/cairn' }, expected: ['.cache/cairn/**'] },
      { name: 'a store outside the root changes nothing', input: { root: '/r', store: '/elsewhere/store' }, expected: [] },
      { name: 'a sibling whose name starts like the root is outside it', input: { root: '/r', store: '/r2/store' }, expected: [] },
      { name: 'glob characters in the folder name are escaped', input: { root: '/r', store: '/r/[x]*' }, expected: ['\\[x\\]\\*/**'] },
    ],
    ({ root, store }) => discoveryWithoutStore({}, root, store).exclude ?? [],
  );
});
