// The server's watcher (src/server/watch.ts) as the refresh queue sees it: a root is marked
// watched only after a whole-root check that started once the subscription was live; file
// events become path requests after quiet; a watcher error makes the root unwatched, checks it
// whole, and watches again; no watcher at all leaves every query to check the tree.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkAll } from './check';
import type { EngineHost } from '../../src/core/engine/host';
import { inotifyShortage, pollIntervalMs, RootWatcher, SETTLE_QUIET_MS, type SubscribeFn, type WatchEvent } from '../../src/server/watch';

const ROOT = path.resolve('/w');

function fixture(subscribeFails: number[] = [], refusal?: string) {
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
  const watcher = new RootWatcher({ host, key: 'k', root: ROOT, storeDir: path.resolve('/elsewhere/store'), subscribe, retryDelayMs: 20, precheck: () => refusal });
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

  it('no watcher: the root is never marked watched, is checked whole, and a warning says it is polled', async () => {
    const f = fixture([1]);
    await f.watcher.start();
    assert.deepEqual(f.calls, ['subscribe 1 failed', 'request whole root']);
    assert.equal(f.watcher.live, false);
    assert.equal(f.watcher.warning, 'the file watcher could not start (inotify watch limit reached); polling the tree for changes instead, and each query checks it');
    await f.watcher.close();
  });

  it('a precheck that refuses: the native watcher is never asked (it would block the thread), and the tree is polled', async () => {
    const f = fixture([], 'inotify instances used up: 128 of fs.inotify.max_user_instances 128');
    await f.watcher.start();
    assert.deepEqual(f.calls, ['request whole root']);
    assert.match(f.watcher.warning ?? '', /^the file watcher could not start \(inotify instances used up: 128 of fs\.inotify\.max_user_instances 128\); polling/);
    await f.watcher.close();
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

describe('serve watcher: polling without a watcher costs a bounded share of a core', () => {
  checkAll<number, number>(
    [
      { name: 'a quick check: polled no more often than every 2 s', input: 5, expected: 2000 },
      { name: 'a 500 ms check: 20 times as long between checks', input: 500, expected: 10_000 },
      { name: 'a very slow check: at least once a minute', input: 10_000, expected: 60_000 },
    ],
    pollIntervalMs,
  );
});

describe('serve watcher: whether inotify has an instance left for this user', () => {
  /** A stand-in /proc: the limit, and per process its owner's fds (an inotify one reads anon_inode:inotify). */
  function fakeProc(max: string | undefined, processes: Array<{ inotify: number; other: number }>): string {
    const proc = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-proc-'));
    if (max !== undefined) {
      fs.mkdirSync(path.join(proc, 'sys/fs/inotify'), { recursive: true });
      fs.writeFileSync(path.join(proc, 'sys/fs/inotify/max_user_instances'), `${max}\n`);
    }
    processes.forEach((p, i) => {
      const fd = path.join(proc, String(100 + i), 'fd');
      fs.mkdirSync(fd, { recursive: true });
      for (let n = 0; n < p.inotify + p.other; n++) fs.symlinkSync(n < p.inotify ? 'anon_inode:inotify' : 'socket:[1]', path.join(fd, String(n)));
    });
    return proc;
  }
  checkAll<{ max?: string; processes: Array<{ inotify: number; other: number }>; platform?: NodeJS.Platform }, string | undefined>(
    [
      { name: 'instances left', input: { max: '4', processes: [{ inotify: 1, other: 3 }, { inotify: 2, other: 0 }] }, expected: undefined },
      { name: 'all used', input: { max: '3', processes: [{ inotify: 1, other: 3 }, { inotify: 2, other: 0 }] }, expected: 'inotify instances used up: 3 of fs.inotify.max_user_instances 3' },
      { name: 'no limit to read: assume there is one', input: { processes: [{ inotify: 9, other: 0 }] }, expected: undefined },
      { name: 'not Linux', input: { max: '1', processes: [{ inotify: 1, other: 0 }], platform: 'darwin' }, expected: undefined },
    ],
    ({ max, processes, platform }) => {
      const proc = fakeProc(max, processes);
      try {
        return inotifyShortage(proc, platform ?? 'linux', process.getuid?.());
      } finally {
        fs.rmSync(proc, { recursive: true, force: true });
      }
    },
  );
});
