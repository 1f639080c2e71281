import type { RefreshOptions, RefreshProgress } from '../../src/core/api';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TempWorkspace } from './helpers/workspace';

import { acquireLock, breakLockOfDeadThread } from '../../src/core/store/lock';

// The tsc build of the index thread's entry, beside this test's compiled output.
const INDEX_WORKER = path.resolve(__dirname, '..', '..', 'src', 'core', 'engine', 'indexWorker.js');

const FILES = {
  'src/alpha.ts': 'export function alphaOne() {\n  return 1;\n}\n',
  'src/beta.ts': 'export class Beta {\n  twoOf() {\n    return 2;\n  }\n}\n',
  'docs/guide.md': '# Guide\n\nHow to use alphaOne.\n',
};

describe('whole-index builds on the capped index thread', function () {
  this.timeout(60000);
  let ws: TempWorkspace;
  beforeEach(() => (ws = new TempWorkspace(FILES)));
  afterEach(() => ws.dispose());

  it('builds the same index as the calling thread, with progress, and later refreshes stay incremental', async () => {
    const threaded = ws.engine({ indexWorkerScript: INDEX_WORKER });
    const phases = new Set<string>();
    const report = await threaded.refresh({ onProgress: (p: RefreshProgress) => phases.add(p.phase) });
    assert.deepEqual([report.files, report.added, report.rebuilt], [3, 3, true]);
    assert.ok(phases.has('discover') && phases.has('write'), [...phases].join(','));
    const local = ws.engine({ storeDir: path.join(ws.storeDir, '..', 'local-store') });
    const same = await local.refresh();
    assert.equal(report.chunks, same.chunks);
    for (const q of ['alphaOne', 'twoOf', 'guide']) {
      const a = (await threaded.search(q, { refresh: 'never', limit: 5 })).results.map((h) => h.docid);
      const b = (await local.search(q, { refresh: 'never', limit: 5 })).results.map((h) => h.docid);
      assert.deepEqual(a, b, q);
    }
    ws.write('src/alpha.ts', 'export function alphaOne() {\n  return 11;\n}\n');
    const again = await threaded.refresh();
    assert.deepEqual([again.changed, again.unchanged, again.rebuilt], [1, 2, false]);
    await Promise.all([threaded.close(), local.close()]);
  });

  it('a job that fails on the thread rejects with its own message, and the store stays usable', async () => {
    const engine = ws.engine({ indexWorkerScript: INDEX_WORKER, root: ws.root, lockTimeoutMs: 300 });
    const held = await acquireLock(ws.storeDir);
    try {
      await assert.rejects(engine.refresh({ rebuild: true }), (e: Error) => e.name === 'LockTimeoutError' && /timed out waiting for the index lock/.test(e.message));
    } finally {
      held.release();
    }
    assert.equal((await engine.refresh()).files, 3);
    await engine.close();
  });

  it('an aborted build rejects with the abort reason and leaves the lock free', async () => {
    const engine = ws.engine({ indexWorkerScript: INDEX_WORKER });
    const abort = new AbortController();
    const run = engine.refresh({ signal: abort.signal, onProgress: () => abort.abort(new Error('stop now')) });
    await assert.rejects(run, /stop now/);
    assert.equal(fs.existsSync(path.join(ws.storeDir, 'write.lock')), false);
    assert.equal((await engine.refresh()).files, 3);
    await engine.close();
  });

  it('a thread that dies under its heap cap costs nothing: the build runs here instead, with a diagnostic', async () => {
    const engine = ws.engine({ indexWorkerScript: INDEX_WORKER, indexHeapMb: 1 });
    const report = await engine.refresh();
    assert.equal(report.files, 3);
    const died = report.diagnostics.find((d) => d.code === 'index-thread-died');
    assert.ok(died, JSON.stringify(report.diagnostics));
    assert.match(died.message, /built on the calling thread instead/);
    assert.equal((await engine.search('alphaOne', { refresh: 'never' })).results[0]?.path, 'src/alpha.ts');
    await engine.close();
  });

  it('a lock left by a dead thread of this process is broken at once, and only that one', async () => {
    const held = await acquireLock(ws.storeDir);
    assert.equal(breakLockOfDeadThread(ws.storeDir, 12345), false, 'another thread: untouched');
    assert.ok(fs.existsSync(path.join(ws.storeDir, 'write.lock')));
    assert.equal(breakLockOfDeadThread(ws.storeDir, 0), true, 'the main thread (threadId 0) holds it');
    assert.equal(fs.existsSync(path.join(ws.storeDir, 'write.lock')), false);
    held.release();
  });
});

describe('a big refresh of a long-lived host runs on the index thread, a save here', function () {
  this.timeout(60000);
  // More files than a save (SMALL_REFRESH_FILES), committed in parts as a host's queue asks.
  const MANY = 40;
  const file = (i: number): string => `src/m${String(i).padStart(2, '0')}.ts`;
  const paths = Array.from({ length: MANY }, (_, i) => file(i));
  let ws: TempWorkspace;
  beforeEach(async () => {
    ws = new TempWorkspace(Object.fromEntries(paths.map((p, i) => [p, `export const v${i} = 'walrusold';\n`])));
    await ws.engine({ strategy: 'lines' }).refresh();
  });
  afterEach(() => ws.dispose());

  // An index thread too small to live tells which refreshes go to it: that one says it died
  // (and is done here instead); one run here never starts it.
  // [what, files changed, the refresh's options, sent to the thread?]
  const cases: Array<[string, number, RefreshOptions, boolean]> = [
    ['many named paths in parts (a checkout the watcher saw): the thread', MANY, { only: paths, commitEveryFiles: 10 }, true],
    ['a save (a few paths): here', 2, { only: paths.slice(0, 2), commitEveryFiles: 10 }, false],
    ['not in parts (a one-off refresh): here', MANY, { only: paths }, false],
    ['a whole-root check in parts that finds many changed (a checkout): the thread', MANY, { commitEveryFiles: 10 }, true],
    ['a whole-root check in parts that finds a few changed: here', 2, { commitEveryFiles: 10 }, false],
    ['a whole-root check with a deadline (a one-shot query): here', MANY, { commitEveryFiles: 10, deadlineAtMs: Date.now() + 600_000 }, false],
  ];
  for (const [name, changed, options, toThread] of cases) {
    it(name, async () => {
      paths.slice(0, changed).forEach((p, i) => ws.write(p, `export const v${i} = 'zebraquux';\n`));
      const engine = ws.engine({ strategy: 'lines', indexWorkerScript: INDEX_WORKER, indexHeapMb: 1 });
      const report = await engine.refresh(options);
      const found = (await engine.search('zebraquux', { refresh: 'never', limit: MANY })).total;
      assert.deepEqual(
        { changed: report.changed, found, toThread: report.diagnostics.some((d) => d.code === 'index-thread-died') },
        { changed, found: changed, toThread },
      );
      await engine.close();
    });
  }
});
