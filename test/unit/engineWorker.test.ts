import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { rpcClient, RpcError } from '../../src/core/engine/rpc';
import type { EngineHostEvents, EngineThreadApi } from '../../src/core/engine/hostApi';
import { GRAMMARS_DIR, TempWorkspace } from './helpers/workspace';

describe('engine host worker (RPC)', function () {
  this.timeout(30000);
  let ws: TempWorkspace;
  let worker: Worker;
  beforeEach(() => {
    ws = new TempWorkspace({ 'src/app.ts': 'export function startApp() { return 1 }\n', 'README.md': '# App\n\nRun startApp.\n' });
    worker = new Worker(path.resolve(__dirname, '../../src/cli/engineWorker.js'));
  });
  afterEach(async () => {
    await worker.terminate();
    await ws.dispose();
  });

  it('opens, refreshes with progress events, searches and reports status', async () => {
    const client = rpcClient<EngineThreadApi>(worker);
    const events: string[] = [];
    client.onEvent((e, p) => {
      if (e === 'progress') events.push(`progress:${(p as EngineHostEvents['progress']).progress.phase}`);
      else if (e === 'state') events.push(`state:${(p as EngineHostEvents['state']).state.kind}`);
    });
    const opts = { root: ws.root, storeDir: ws.storeDir, grammarsDir: GRAMMARS_DIR, strategy: 'lines' as const, workers: 0 };
    const before = await client.call('open', ['ws', opts]);
    assert.equal(before.exists, false);
    const report = await client.call('refresh', ['ws', {}]);
    assert.equal(report?.files, 2);
    assert.ok(events.includes('progress:discover'));
    assert.ok(events.indexOf('state:refreshing') < events.lastIndexOf('state:idle'), 'the thread pushes the queue state as it changes');
    const state = await client.call('state', ['ws']);
    assert.deepEqual([state.kind, state.queued, state.status.files, state.lastReport?.files], ['idle', false, 2, 2]);
    const r = await client.call('search', ['ws', 'startApp', { limit: 5, scope: 'code' }]);
    assert.equal(r.results[0]?.path, 'src/app.ts');
    const status = await client.call('status', ['ws']);
    assert.equal(status.files, 2);
  });

  it('reports errors as rejections with the remote message', async () => {
    const client = rpcClient<EngineThreadApi>(worker);
    await assert.rejects(client.call('search', ['nope', 'x', {}]), (e: unknown) => e instanceof RpcError && /no engine open for nope/.test(e.message));
  });

  it('cancels a refresh', async () => {
    for (let i = 0; i < 300; i++) ws.write(`src/gen/f${i}.ts`, `export const v${i} = ${i};\n`.repeat(50));
    const client = rpcClient<EngineThreadApi>(worker);
    await client.call('open', ['ws', { root: ws.root, storeDir: ws.storeDir, grammarsDir: GRAMMARS_DIR, strategy: 'lines', workers: 0 }]);
    const controller = new AbortController();
    const p = client.call('refresh', ['ws', {}], controller.signal);
    setTimeout(() => controller.abort(), 30);
    await assert.rejects(p);
    // The store is still consistent: a later refresh completes.
    const report = await client.call('refresh', ['ws', {}]);
    assert.equal(report?.files, 302);
  });
});
