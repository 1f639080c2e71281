// Taking the writer lock on a full disk fails with the disk's error and leaves nothing behind:
// neither the lock's temporary (`.write.lock.<pid>.<token>.tmp`) nor an empty lock that would
// make every later writer wait for it to go stale.
import * as fs from 'node:fs';
// The module object itself (not the import's read-only view), to make its calls fail.
import nodeFs = require('node:fs');
import * as os from 'node:os';
import * as path from 'node:path';
import { checkAll } from './check';
import { acquireLock } from '../../src/core/store/lock';

type Failing = 'writeFileSync' | 'writeSync';

/**
 * Makes `fs[name]` write a few bytes of what it is given and then fail as a full disk does,
 * from its `from`-th call on (the earlier ones succeed).
 */
function withFullDisk<T>(name: Failing, from: number, fn: () => Promise<T>): Promise<T> {
  const mutable = nodeFs as unknown as Record<Failing, (...args: unknown[]) => unknown>;
  const original = mutable[name];
  const writeSync = nodeFs.writeSync;
  let calls = 0;
  mutable[name] = (target: unknown, data: unknown, ...rest: unknown[]) => {
    if (++calls < from) return original(target, data, ...rest);
    const fd = typeof target === 'number' ? target : fs.openSync(target as string, 'w');
    writeSync(fd, String(data).slice(0, 3));
    if (typeof target !== 'number') fs.closeSync(fd);
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  };
  return fn().finally(() => (mutable[name] = original));
}

describe('writer lock on a full disk', () => {
  checkAll<{ failing: Failing; from: number; linkable: boolean }, { error: string; left: string[] }>(
    [
      { name: 'the temporary the lock is linked from', input: { failing: 'writeFileSync', from: 1, linkable: true }, expected: { error: 'ENOSPC', left: [] } },
      // The temporary is written (first call); the lock written in its place is not.
      { name: 'the lock written in place where links are not supported', input: { failing: 'writeSync', from: 2, linkable: false }, expected: { error: 'ENOSPC', left: [] } },
    ],
    async ({ failing, from, linkable }) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-lock-'));
      const mutable = nodeFs as unknown as { linkSync: typeof fs.linkSync };
      const link = mutable.linkSync;
      if (!linkable) mutable.linkSync = () => { throw Object.assign(new Error('ENOTSUP'), { code: 'ENOTSUP' }); };
      try {
        let error = 'none';
        await withFullDisk(failing, from, () => acquireLock(dir, { timeoutMs: 2000 }).then((l) => l.release())).catch((e: NodeJS.ErrnoException) => (error = e.code ?? String(e)));
        return { error, left: fs.readdirSync(dir) };
      } finally {
        mutable.linkSync = link;
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );

});
