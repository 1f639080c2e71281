// A long incremental refresh commits in parts (RefreshOptions.commitEveryFiles, indexer.ts), so a
// query during a big refresh already sees what has landed, and the refresh says which files it
// has still to index (onPending) — what the freshness policy lists and marks stale.
import * as assert from 'node:assert/strict';
import { TempWorkspace } from './helpers/workspace';
import type { Engine } from '../../src/core/engine/engine';

const FILES = 12;
const name = (i: number): string => `src/f${String(i).padStart(2, '0')}.ts`;

describe('a big refresh lands in parts', function () {
  this.timeout(30000);
  let ws: TempWorkspace;
  let engine: Engine;

  beforeEach(async () => {
    ws = new TempWorkspace(Object.fromEntries(Array.from({ length: FILES }, (_, i) => [name(i), `export function oldName${i}() {\n  return 'walrusold';\n}\n`])));
    engine = ws.engine({ strategy: 'lines' });
    await engine.refresh();
  });
  afterEach(() => ws.dispose());

  const rewriteAll = (): void => {
    for (let i = 0; i < FILES; i++) ws.write(name(i), `export function newName${i}() {\n  return 'zebraquux';\n}\n`);
  };
  const newHits = async (): Promise<number> => (await engine.search('zebraquux', { limit: 50, refresh: 'never' })).results.length;

  it('commits a generation every few files, each visible to a reader, and lists what is still pending after each', async () => {
    rewriteAll();
    const before = engine.status().generation;
    const pending: number[] = [];
    const seen: number[] = [];
    const report = await engine.refresh({
      commitEveryFiles: 4,
      onPending: (paths) => {
        pending.push(paths.length);
        // A reader between parts: a new generation with some of the new names in it.
        void newHits().then((n) => seen.push(n));
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(pending[0], FILES, 'first, every rewritten file is pending');
    assert.ok(pending.length >= 3, `pending reported after each part: ${pending.join(', ')}`);
    assert.deepEqual([...pending].sort((a, b) => b - a), pending, 'pending only shrinks');
    assert.ok(engine.status().generation - before >= 3, 'several generations committed');
    assert.ok(seen.some((n) => n > 0 && n < FILES), `a reader saw part of the refresh: ${seen.join(', ')}`);
    assert.equal(report.changed, FILES, 'the report counts every part');
    assert.equal(await newHits(), FILES);
    assert.equal((await engine.search('walrusold', { refresh: 'never' })).results.length, 0, 'no old chunk is left behind');
  });

  it('without commitEveryFiles, one commit at the end', async () => {
    rewriteAll();
    const before = engine.status().generation;
    await engine.refresh();
    assert.equal(engine.status().generation - before, 1);
  });
});
