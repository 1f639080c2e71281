// A long-lived host lets go of its engine's caches once the root has been unused for a while,
// and answers the same afterwards.
import * as assert from 'node:assert/strict';
import { EngineHost } from '../../src/core/engine/host';
import { GRAMMARS_DIR, TempWorkspace } from './helpers/workspace';

const FILES = {
  'src/store.ts': ['export class StorePool {', '  open(): void {}', '}', ''].join('\n'),
  'src/app.ts': ["import { StorePool } from './store';", 'export const pool = new StorePool();', ''].join('\n'),
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('engine host: releasing caches when unused', function () {
  this.timeout(30000);
  let ws: TempWorkspace;
  let host: EngineHost;
  let released: number;
  let collected: number;
  const logged: string[] = [];
  const key = 'root';

  beforeEach(async () => {
    ws = new TempWorkspace(FILES);
    released = 0;
    collected = 0;
    host = new EngineHost({}, { log: (m) => logged.push(m) }, { releaseIdleMs: 150, collectGarbage: () => collected++ });
    await host.open(key, { root: ws.root, storeDir: ws.storeDir, grammarsDir: GRAMMARS_DIR, workers: 0 });
    const engine = host.engine(key);
    const release = engine.releaseCaches.bind(engine);
    engine.releaseCaches = () => {
      released++;
      release();
    };
    await host.request(key, {});
  });

  afterEach(async () => {
    await host.closeAll();
    await ws.dispose();
  });

  const answer = async () => {
    const symbol = await host.findSymbol(key, 'StorePool', {});
    const refs = await host.references(key, 'StorePool', {});
    const search = await host.search(key, 'pool', {});
    return {
      symbol: symbol.results.map((r) => `${r.path}:${r.nameLine}`),
      refs: refs.references.map((r) => `${r.path}:${r.line}:${r.column} ${r.certainty}`),
      search: search.results.map((r) => r.docid),
    };
  };

  it('releases once after the idle time, collects garbage, and answers the same after', async () => {
    const before = await answer();
    assert.deepEqual(before.symbol, ['src/store.ts:1']);
    await sleep(400);
    assert.equal(released, 1);
    assert.equal(collected, 1);
    assert.ok(logged.some((m) => /released the index's caches after \d+s unused/.test(m)));
    assert.deepEqual(await answer(), before);
    // Used again: released again once unused again.
    await sleep(400);
    assert.equal(released, 2);
  });

  it('a read within the idle time puts the release off', async () => {
    for (let i = 0; i < 5; i++) {
      await sleep(60);
      await host.findSymbol(key, 'StorePool', {});
    }
    assert.equal(released, 0);
    await sleep(400);
    assert.equal(released, 1);
  });
});
