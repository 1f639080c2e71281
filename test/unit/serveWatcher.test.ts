// The server's watcher (src/server/watch.ts) as the refresh queue sees it: a root is marked
// watched only after a whole-root check that started once the subscription was live; file
// events become path requests after quiet; a watcher error makes the root unwatched, checks it
// whole, and watches again; no watcher at all leaves every query to check the tree.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { EngineHost } from '../../src/core/engine/host';
import { RootWatcher, SETTLE_QUIET_MS, type SubscribeFn, type WatchEvent } from '../../src/server/watch';

const ROOT = path.resolve('/w');

function fixture(subscribeFails: number[] = []) {
  const calls: string[] = [];
  let deliver: (err: Error | null, events: WatchEvent[]) => unknown = () => undefined;
  let attempt = 0;
  const host = {
    request: async (_key: string, request: { only?: string[] }, afterQuiet?: boolean) => {
      calls.push(request.only ? `request ${request.only.join(',')}${afterQuiet ? ' after quiet' : ''}` : 'request whole root');
      return undefined;
    },
    setWatching: (_key: string, watching: boolean) => calls.push(`watching ${watching}`),
    queue: () => ({ markVerified: () => calls.push('verified') }),
  } as unknown as EngineHost;
  const subscribe: SubscribeFn = async (_dir, fn) => {
    attempt++;
    if (subscribeFails.includes(attempt)) {
      calls.push(`subscribe ${attempt} failed`);
      throw new Error('inotify watch limit reached');
    }
    calls.push(`subscribe ${attempt}`);
    deliver = fn;
    return { unsubscribe: async () => void calls.push(`unsubscribe ${attempt}`) };
  };
  const watcher = new RootWatcher({ host, key: 'k', root: ROOT, storeDir: path.resolve('/elsewhere/store'), subscribe, retryDelayMs: 20 });
  return { calls, watcher, deliver: (err: Error | null, events: WatchEvent[]) => deliver(err, events) };
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('serve watcher: what the refresh queue is told', () => {
  it('subscribes, checks the whole root, then trusts the watcher; events become path requests', async () => {
    const f = fixture();
    await f.watcher.start();
    f.deliver(null, [{ type: 'update', path: path.join(ROOT, 'src/a.ts') }, { type: 'update', path: path.join(ROOT, 'node_modules/x.js') }]);
    assert.deepEqual(f.calls, ['subscribe 1', 'request whole root', 'verified', 'watching true', 'request src/a.ts after quiet']);
    assert.equal(f.watcher.live, true);
    await f.watcher.close();
  });

  it('a watcher error: unwatched at once, one whole-root check, then watched again after the check', async () => {
    const f = fixture([2]);
    await f.watcher.start();
    f.calls.length = 0;
    f.deliver(new Error('inotify queue overflow'), []);
    assert.deepEqual(f.calls, ['watching false', 'unsubscribe 1', 'request whole root']);
    // The first retry fails, the second (after twice the delay) works.
    for (let waited = 0; !f.calls.includes('watching true') && waited < 3000; waited += 10) await tick(10);
    assert.deepEqual(f.calls, ['watching false', 'unsubscribe 1', 'request whole root', 'subscribe 2 failed', 'subscribe 3', 'request whole root', 'verified', 'watching true']);
    await f.watcher.close();
  });

  it('no watcher: the root is never marked watched, and is checked whole once', async () => {
    const f = fixture([1]);
    await f.watcher.start();
    assert.deepEqual(f.calls, ['subscribe 1 failed', 'request whole root']);
    assert.equal(f.watcher.live, false);
  });

  it('a query waits while deliveries are in a burst, and not when they are quiet', async () => {
    const f = fixture();
    await f.watcher.start();
    let t = performance.now();
    await f.watcher.settle();
    assert.ok(performance.now() - t < SETTLE_QUIET_MS / 2, 'quiet: no wait');
    f.deliver(null, [{ type: 'update', path: path.join(ROOT, 'src/a.ts') }]);
    t = performance.now();
    await f.watcher.settle();
    assert.ok(performance.now() - t >= SETTLE_QUIET_MS - 5, 'just delivered: waits for quiet');
    await f.watcher.close();
  });
});
