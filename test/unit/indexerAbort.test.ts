// Cancelling a refresh (the extension's Pause) while the next batch is being read ahead must
// reject the refresh and nothing else: an unhandled rejection would kill the engine's worker thread.
import * as assert from 'node:assert/strict';
import { TempWorkspace } from './helpers/workspace';

describe('cancelling a refresh', function () {
  this.timeout(30000);

  it('rejects with the abort reason and leaves no unhandled rejection behind', async () => {
    const files: Record<string, string> = {};
    // More files than one read batch (400), so a read-ahead is in flight when the abort lands.
    for (let i = 0; i < 900; i++) files[`src/m${i}.ts`] = `export function f${i}(x: number): number {\n  return x * ${i};\n}\n`;
    const ws = new TempWorkspace(files);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const engine = ws.engine({ strategy: 'lines' });
      const controller = new AbortController();
      const refresh = engine.refresh({
        signal: controller.signal,
        onProgress: (p) => {
          if (p.phase === 'read' && !controller.signal.aborted) controller.abort(new Error('paused'));
        },
      });
      await assert.rejects(refresh, /paused/);
      await new Promise((r) => setTimeout(r, 500));
      assert.deepEqual(unhandled.map((e) => (e instanceof Error ? e.message : String(e))), []);
      // The store is untouched and the next refresh builds it.
      const r = await engine.refresh();
      assert.equal(r.files, 900);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      ws.dispose();
    }
  });
});
