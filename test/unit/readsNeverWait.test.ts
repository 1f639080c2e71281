// The index always answers: a query never waits for another writer while there is an index to
// answer from, a store that cannot be written is answered from as it is, a rebuild is built
// beside the index readers use, and a failed write leaves nothing behind.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { TempWorkspace } from './helpers/workspace';
import { acquireLock, LockHeldError } from '../../src/core/store/lock';
import { writeFileAtomic } from '../../src/core/store/atomic';
import { IndexStore } from '../../src/core/store/store';

const LOCK_JS = path.resolve(__dirname, '../../src/core/store/lock.js');

/** A child process that takes the store's writer lock and holds it until killed (or for `holdMs`). */
async function lockHolder(storeDir: string, holdMs = 60_000): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', `
    const { acquireLock } = require(${JSON.stringify(LOCK_JS)});
    acquireLock(${JSON.stringify(storeDir)}, { heartbeatMs: 200 }).then((l) => {
      console.log('held');
      setTimeout(() => { l.release(); process.exit(0); }, ${holdMs});
    });`], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => child.stdout?.on('data', (d) => String(d).includes('held') && resolve()));
  return child;
}

/** Names in the store that the current manifest does not account for (left by a failed write). */
function strayFiles(storeDir: string): string[] {
  const m = JSON.parse(fs.readFileSync(path.join(storeDir, 'manifest.json'), 'utf8')) as { state: string; stateDelta?: string; segments: Array<{ name: string }> };
  const known = new Set(['manifest.json', 'cairn-store.json', 'write.lock', m.state, m.stateDelta, ...m.segments.map((s) => s.name)]);
  return fs.readdirSync(storeDir).filter((n) => !known.has(n));
}

describe('reads never wait for a writer', function () {
  this.timeout(30000);
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = new TempWorkspace({
      'src/a.ts': 'export function apple() { return 1 }\n',
      'src/b.ts': 'export function banana() { return 2 }\n',
    });
  });
  afterEach(() => ws.dispose());

  it('a query answers at once from the index while another process holds the lock, and says who holds it', async () => {
    await ws.engine({ strategy: 'lines' }).refresh();
    ws.write('src/c.ts', 'export function cherry() { return 3 }\n');
    const holder = await lockHolder(ws.storeDir);
    try {
      const started = Date.now();
      const r = await ws.engine({ strategy: 'lines' }).search('banana', { refresh: 'always' });
      assert.ok(Date.now() - started < 2000, `answered after ${Date.now() - started} ms`);
      assert.deepEqual(r.results.map((h) => h.path), ['src/b.ts']);
      const skipped = r.diagnostics.find((d) => d.code === 'refresh-skipped');
      assert.ok(skipped, JSON.stringify(r.diagnostics));
      assert.match(skipped.message, new RegExp(`pid ${holder.pid}`));
      assert.equal(r.index.fresh, false);
    } finally {
      holder.kill();
    }
  });

  it('with no index yet, a query waits for the writer and says whom it waits for', async () => {
    // Held well past the first second of waiting (when a waiter first says whom it waits for), even on a loaded machine.
    const holder = await lockHolder(ws.storeDir, 4000);
    const told: string[] = [];
    const r = await ws.engine({ strategy: 'lines', onLockWait: (m) => told.push(m) }).search('banana', { refresh: 'always' });
    assert.deepEqual(r.results.map((h) => h.path), ['src/b.ts']);
    assert.ok(told.length >= 1, JSON.stringify(told));
    assert.match(told[0]!, new RegExp(`waiting for the index lock held by pid ${holder.pid} .* since `));
  });

  it('a lock held by someone else is refused at once when the caller will not wait', async () => {
    const holder = await lockHolder(ws.storeDir);
    try {
      const started = Date.now();
      await assert.rejects(acquireLock(ws.storeDir, { wait: false }), (e: unknown) => e instanceof LockHeldError && e.message.includes(`pid ${holder.pid}`));
      assert.ok(Date.now() - started < 500);
    } finally {
      holder.kill();
    }
  });

  // [what fails, the error code] — a store that cannot take this refresh still answers.
  const faults: Array<[keyof IndexStore & ('writeSegment' | 'commit'), string, RegExp]> = [
    ['writeSegment', 'ENOSPC', /the disk is full \(ENOSPC\)/],
    ['commit', 'ENOSPC', /the disk is full \(ENOSPC\)/],
    ['writeSegment', 'EROFS', /the store cannot be written \(EROFS\)/],
    ['commit', 'EACCES', /the store cannot be written \(EACCES\)/],
  ];
  for (const [method, code, message] of faults) {
    it(`${code} from ${method}: the query answers from the index as it is, and the failed write leaves no file behind`, async () => {
      await ws.engine({ strategy: 'lines' }).refresh();
      ws.write('src/b.ts', 'export function blueberry() { return 2 }\n');
      const original = IndexStore.prototype[method];
      (IndexStore.prototype as unknown as Record<string, unknown>)[method] = () => {
        throw Object.assign(new Error(`${code}: simulated`), { code });
      };
      let r;
      try {
        r = await ws.engine({ strategy: 'lines' }).search('banana', { refresh: 'always' });
      } finally {
        IndexStore.prototype[method] = original as never;
      }
      assert.deepEqual(r.results.map((h) => h.path), ['src/b.ts'], 'the old index answers');
      const skipped = r.diagnostics.find((d) => d.code === 'refresh-skipped');
      assert.ok(skipped, JSON.stringify(r.diagnostics));
      assert.match(skipped.message, message);
      assert.deepEqual(strayFiles(ws.storeDir), [], 'segments and temporaries of the failed refresh are removed');
      // Nothing is stuck: once the store can be written, the next query refreshes.
      const next = await ws.engine({ strategy: 'lines' }).search('blueberry', { refresh: 'always' });
      assert.deepEqual(next.results.map((h) => h.path), ['src/b.ts']);
      assert.equal(next.index.fresh, true);
    });
  }

  it('an error that is not about the store still fails the query', async () => {
    await ws.engine({ strategy: 'lines' }).refresh();
    ws.write('src/b.ts', 'export function blueberry() { return 2 }\n');
    const original = IndexStore.prototype.commit;
    IndexStore.prototype.commit = () => {
      throw new TypeError('a bug');
    };
    try {
      await assert.rejects(ws.engine({ strategy: 'lines' }).search('banana', { refresh: 'always' }), /a bug/);
    } finally {
      IndexStore.prototype.commit = original;
    }
  });
});

describe('a rebuild never removes the index being read', function () {
  this.timeout(30000);
  let ws: TempWorkspace;
  beforeEach(() => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[`src/f${i}.ts`] = `export function fruit${i}() { return ${i} }\n`;
    ws = new TempWorkspace(files);
  });
  afterEach(() => ws.dispose());

  it('readers keep answering from the old index until the new one is committed; then its files go', async () => {
    await ws.engine({ strategy: 'lines' }).refresh();
    const before = JSON.parse(fs.readFileSync(path.join(ws.storeDir, 'manifest.json'), 'utf8')) as { generation: number; segments: Array<{ name: string }> };
    const reader = ws.engine({ strategy: 'lines' });
    const during: string[][] = [];
    const report = await ws.engine({ strategy: 'lines' }).refresh({
      rebuild: true,
      onProgress: (p) => {
        if (p.phase !== 'read' || during.length > 0) return;
        // Synchronously, mid-rebuild: the store as another process would see it.
        const snapshot = new IndexStore(ws.storeDir).snapshot();
        during.push(snapshot ? snapshot.segments.map((s) => s.name) : []);
      },
    });
    assert.deepEqual(during, [before.segments.map((s) => s.name)], 'mid-rebuild, the old generation is still the one on disk');
    assert.ok(report.rebuilt);
    assert.equal(report.generation, before.generation + 1);
    const r = await reader.search('fruit7', { refresh: 'never' });
    assert.deepEqual(r.results.map((h) => h.path), ['src/f7.ts']);
    assert.deepEqual(r.diagnostics, []);
    for (const s of before.segments) assert.ok(!fs.existsSync(path.join(ws.storeDir, s.name)), `${s.name} was removed after the switch`);
  });

  it('a rebuild stopped midway leaves the old index answering and none of its own files', async () => {
    await ws.engine({ strategy: 'lines' }).refresh();
    const abort = new AbortController();
    await assert.rejects(
      ws.engine({ strategy: 'lines' }).refresh({ rebuild: true, signal: abort.signal, onProgress: (p) => p.phase === 'read' && abort.abort(new Error('stopped')) }),
      /stopped/,
    );
    const r = await ws.engine({ strategy: 'lines' }).search('fruit7', { refresh: 'never' });
    assert.deepEqual(r.results.map((h) => h.path), ['src/f7.ts']);
    assert.deepEqual(r.diagnostics, []);
    assert.deepEqual(strayFiles(ws.storeDir), []);
  });
});

describe('crash-safe writes', () => {
  it('a write that fails midway (a full disk) removes its temporary file at once', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-atomic-'));
    try {
      const pieces = {
        *[Symbol.iterator]() {
          yield new Uint8Array(1000);
          throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
        },
      } as unknown as Uint8Array[];
      assert.throws(() => writeFileAtomic(path.join(dir, 'seg-x.cseg'), pieces), /ENOSPC/);
      assert.deepEqual(fs.readdirSync(dir), []);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
