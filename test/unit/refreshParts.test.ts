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

  it('the last files land before the segments are merged: nothing is pending while the merge runs', async () => {
    rewriteAll();
    const events: string[] = [];
    let landedGeneration = -1;
    await engine.refresh({
      commitEveryFiles: 1,
      onPending: (paths) => {
        events.push(`pending ${paths.length}`);
        if (paths.length === 0) landedGeneration = engine.store.readManifest()?.generation ?? -1;
      },
      onProgress: (p) => {
        if (p.phase === 'merge' && events.at(-1) !== 'merge') events.push('merge');
      },
    });
    // A segment per file is more than a generation keeps: the final commit merges them.
    assert.ok(events.includes('merge'), events.join(', '));
    assert.ok(events.indexOf('pending 0') >= 0 && events.indexOf('pending 0') < events.indexOf('merge'), events.join(', '));
    const landed = engine.store.readManifest();
    assert.ok(landed && landedGeneration > 0 && landedGeneration < landed.generation, 'the merge is a generation of its own, after the one the files landed in');
    assert.equal(await newHits(), FILES);
  });

  it('past its deadline, a refresh commits the part under way, lists the files it left, and the next one finishes', async () => {
    rewriteAll();
    const stopped = await engine.refresh({ commitEveryFiles: 4, deadlineAtMs: Date.now() });
    const found = async () => ({ new: await newHits(), old: (await engine.search('walrusold', { limit: 50, refresh: 'never' })).results.length });
    assert.deepEqual({ left: stopped.pending?.length, ...(await found()) }, { left: FILES - 4, new: 4, old: FILES - 4 });
    assert.deepEqual(stopped.pending, Array.from({ length: FILES - 4 }, (_, i) => name(i + 4)), 'the files left are named');
    const finished = await engine.refresh({ commitEveryFiles: 4 });
    assert.deepEqual({ left: finished.pending, ...(await found()) }, { left: undefined, new: FILES, old: 0 });
  });

  it('without commitEveryFiles, one commit at the end', async () => {
    rewriteAll();
    const before = engine.status().generation;
    await engine.refresh();
    assert.equal(engine.status().generation - before, 1);
  });
});

describe('a query in its own process answers within its refresh budget', function () {
  this.timeout(60000);
  // More than a part (COMMIT_EVERY_FILES) several times over: each query commits one part.
  const MANY = 250;
  const file = (i: number): string => `src/m${String(i).padStart(3, '0')}.ts`;

  it('each query counts the files left and sees more, until the index has caught up', async () => {
    const ws = new TempWorkspace(Object.fromEntries(Array.from({ length: MANY }, (_, i) => [file(i), `export const v${i} = 'walrusold';\n`])));
    try {
      // A budget of 0 ms: every query's refresh stops after its first part.
      const engine = ws.engine({ strategy: 'lines', queryRefreshBudgetMs: 0 });
      await engine.refresh();
      for (let i = 0; i < MANY; i++) ws.write(file(i), `export const v${i} = 'zebraquux';\n`);
      const check = async (expected: { found: number; pending?: number; fresh: boolean; said: boolean }) => {
        const r = await engine.search('zebraquux', { limit: MANY, crossReferences: false, refresh: 'always' });
        const said = r.diagnostics.some((d) => d.code === 'refreshing' && d.message.startsWith(`refreshing ${expected.pending} files: answered from the index as it is`));
        assert.deepEqual({ found: r.total, pending: r.index.pending, fresh: r.index.fresh, said }, expected);
      };
      await check({ found: 100, pending: 150, fresh: false, said: true });
      await check({ found: 200, pending: 50, fresh: false, said: true });
      await check({ found: MANY, pending: undefined, fresh: true, said: false });
    } finally {
      await ws.dispose();
    }
  });
});
