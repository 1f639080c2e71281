import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { TempWorkspace } from './helpers/workspace';
import { acquireLock, LockTimeoutError } from '../../src/core/store/lock';
import { IndexStore, STORE_FORMAT_VERSION } from '../../src/core/store/store';
import { SEGMENT_FORMAT_VERSION } from '../../src/core/index/segmentFormat';
import { withSectionFilled } from './helpers/damage';

const ENGINE_JS = path.resolve(__dirname, '../../src/core/engine/engine.js');
const GRAMMARS = path.resolve(__dirname, '../../../grammars');

function manifestOf(storeDir: string): { state: string; stateDelta?: string; segments: Array<{ name: string }>; version: number } {
  return JSON.parse(fs.readFileSync(path.join(storeDir, 'manifest.json'), 'utf8'));
}

/** Runs a refresh in a separate Node process; resolves with its exit code and output. */
function refreshInChild(root: string, storeDir: string, extra = ''): { done: Promise<{ code: number | null; out: string }>; kill: () => void } {
  const script = `
    const { Engine } = require(${JSON.stringify(ENGINE_JS)});
    const e = new Engine({ root: ${JSON.stringify(root)}, storeDir: ${JSON.stringify(storeDir)}, grammarsDir: ${JSON.stringify(GRAMMARS)}, strategy: 'lines', workers: 0 });
    ${extra}
    e.refresh().then((r) => { console.log(JSON.stringify({ files: r.files, chunks: r.chunks })); return e.close(); })
      .catch((err) => { console.error(err); process.exit(3); });`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return {
    done: new Promise((resolve) => child.on('close', (code) => resolve({ code, out }))),
    kill: () => child.kill('SIGKILL'),
  };
}

describe('index store', function () {
  this.timeout(30000);
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = new TempWorkspace({
      'src/a.ts': 'export function apple() { return 1 }\n',
      'src/b.ts': 'export function banana() { return 2 }\n',
    });
  });
  afterEach(() => ws.dispose());

  // [name, damage, does searching read the damaged file?]
  const corruptions: Array<[string, (storeDir: string) => void, boolean?]> = [
    ['a truncated segment', (d) => { const f = path.join(d, manifestOf(d).segments[0]!.name); fs.truncateSync(f, fs.statSync(f).size - 40); }],
    ['a garbage segment', (d) => fs.writeFileSync(path.join(d, manifestOf(d).segments[0]!.name), 'garbage'.repeat(50))],
    ['a missing segment', (d) => fs.rmSync(path.join(d, manifestOf(d).segments[0]!.name))],
    ['a garbage manifest', (d) => fs.writeFileSync(path.join(d, 'manifest.json'), '{"format": "cairn-index", "vers')],
    ['a manifest that became a directory', (d) => { fs.rmSync(path.join(d, 'manifest.json')); fs.mkdirSync(path.join(d, 'manifest.json', 'inside'), { recursive: true }); }],
    ['a manifest from another format version', (d) => { const m = manifestOf(d); m.version = STORE_FORMAT_VERSION - 1; fs.writeFileSync(path.join(d, 'manifest.json'), JSON.stringify(m)); }],
    ['a corrupt state table', (d) => fs.writeFileSync(path.join(d, manifestOf(d).state), '{"files": 12}'), false],
    ['a state table of binary garbage', (d) => fs.writeFileSync(path.join(d, manifestOf(d).state), Buffer.alloc(256, 0xff)), false],
    ['a truncated state table', (d) => { const f = path.join(d, manifestOf(d).state); fs.truncateSync(f, fs.statSync(f).size - 9); }, false],
    ['a state delta of another table', (d) => {
      const m = manifestOf(d);
      m.stateDelta = 'state-delta-9-abcdef.json';
      fs.writeFileSync(path.join(d, m.stateDelta), JSON.stringify({ base: 'state-1-000000.json', files: {}, skipped: [] }));
      fs.writeFileSync(path.join(d, 'manifest.json'), JSON.stringify(m));
    }, false],
  ];
  for (const [name, damage, readPath = true] of corruptions) {
    it(`rebuilds after ${name}, with a diagnostic, and still answers`, async () => {
      await ws.engine({ strategy: 'lines' }).refresh();
      damage(ws.storeDir);
      const fresh = ws.engine({ strategy: 'lines' });
      const r = await fresh.search('banana');
      assert.deepEqual(r.results.map((h) => h.path), ['src/b.ts']);
      if (readPath) assert.ok(r.diagnostics.some((d) => d.code === 'store-corrupt' || d.code === 'store-version'), JSON.stringify(r.diagnostics));
      // A refresh on the damaged store also recovers, and says so.
      damage(ws.storeDir);
      const report = await ws.engine({ strategy: 'lines' }).refresh();
      assert.equal(report.files, 2);
      assert.ok(report.rebuilt);
      assert.ok(report.diagnostics.some((d) => d.code === 'store-corrupt' || d.code === 'store-version'), JSON.stringify(report.diagnostics));
    });
  }

  it('a store of the format before ctimes and inodes is rebuilt once, saying so, and serves what changed since', async () => {
    ws.write('src/c.ts', 'export const quokka = 3;\n');
    await ws.engine({ strategy: 'lines' }).refresh();
    // What the previous release left: its format number, its state layout.
    const previousFormat = 5 * 1000 + SEGMENT_FORMAT_VERSION;
    const m = manifestOf(ws.storeDir);
    m.version = previousFormat;
    fs.writeFileSync(path.join(ws.storeDir, 'manifest.json'), JSON.stringify(m));
    const stateFile = path.join(ws.storeDir, m.state);
    fs.writeFileSync(stateFile, Buffer.concat([Buffer.from('CSTATE02'), fs.readFileSync(stateFile).subarray(8)]));
    // A same-size rewrite with the mtime put back: a store that records no ctime cannot tell.
    const abs = path.join(ws.root, 'src/c.ts');
    const before = fs.statSync(abs);
    fs.writeFileSync(abs, 'export const wombat = 3;\n');
    fs.utimesSync(abs, before.atime, before.mtime);

    const engine = ws.engine({ strategy: 'lines' });
    const report = await engine.refresh();
    assert.ok(report.rebuilt);
    assert.deepEqual(report.diagnostics.map((d) => [d.code, d.message]), [
      ['store-version', `index format version ${previousFormat} differs from ${STORE_FORMAT_VERSION}; the index was discarded and rebuilt`],
    ]);
    assert.equal(manifestOf(ws.storeDir).version, STORE_FORMAT_VERSION);
    const found = async (q: string) => (await engine.search(q, { refresh: 'never' })).results.map((h) => h.path);
    assert.deepEqual({ wombat: await found('wombat'), quokka: await found('quokka') }, { wombat: ['src/c.ts'], quokka: [] });
    const again = await ws.engine({ strategy: 'lines' }).refresh();
    assert.deepEqual([again.rebuilt, again.diagnostics, again.added, again.changed], [false, [], 0, 0], 'upgraded once');
  });

  describe('state table deltas', () => {
    /** The state as another process reads it, and the files of the store. */
    const readBack = (dir: string) => {
      const store = new IndexStore(dir);
      const m = store.readManifest()!;
      return { manifest: m, files: Object.fromEntries(store.readState(m).entries()), names: fs.readdirSync(dir).filter((n) => n.startsWith('state-')).sort() };
    };

    it('a commit touching a few files writes only their entries; readers see the same table', async () => {
      const writer = ws.engine({ strategy: 'lines' });
      await writer.refresh();
      const before = readBack(ws.storeDir);
      assert.equal(before.manifest.stateDelta, undefined, 'a first index writes the whole table');
      ws.write('src/a.ts', 'export function apricot() { return 1 }\n');
      ws.remove('src/b.ts');
      ws.write('src/c.ts', 'export function cherry() { return 3 }\n');
      await writer.refresh();
      const after = readBack(ws.storeDir);
      assert.equal(after.manifest.state, before.manifest.state, 'the whole table was rewritten');
      assert.ok(after.manifest.stateDelta);
      const delta = JSON.parse(fs.readFileSync(path.join(ws.storeDir, after.manifest.stateDelta), 'utf8'));
      assert.deepEqual(Object.keys(delta.files).sort(), ['src/a.ts', 'src/b.ts', 'src/c.ts']);
      assert.equal(delta.files['src/b.ts'], null);
      assert.deepEqual(Object.keys(after.files).sort(), ['src/a.ts', 'src/c.ts']);
      assert.deepEqual(after.names, [after.manifest.state, after.manifest.stateDelta].sort(), 'superseded state files are collected');
      // A fresh process answers from base + delta.
      const reader = ws.engine({ strategy: 'lines' });
      assert.deepEqual((await reader.search('cherry', { refresh: 'never' })).results.map((h) => h.path), ['src/c.ts']);
      assert.equal((await reader.search('banana', { refresh: 'never' })).results.length, 0);
    });

    it('after many commits and segment merges the table read back equals the writer\'s', async () => {
      const writer = ws.engine({ strategy: 'lines' });
      await writer.refresh();
      for (let round = 0; round < 14; round++) {
        // Each round is its own segment; rewriting most files tombstones old ones and forces merges.
        for (let f = 0; f < 4; f++) ws.write(`src/gen${(round + f) % 6}.ts`, `export const v${round}_${f} = ${round};\n`);
        if (round % 5 === 4) ws.remove(`src/gen${round % 6}.ts`);
        await writer.refresh();
        const back = readBack(ws.storeDir);
        const truth = new IndexStore(ws.storeDir);
        const onDisk = Object.fromEntries(fs.readdirSync(ws.root + '/src').map((n) => [`src/${n}`, true]));
        assert.deepEqual(Object.keys(back.files).sort(), Object.keys(onDisk).sort(), `round ${round}`);
        // Every entry points at live documents of a live segment holding that file.
        const snap = truth.snapshot()!;
        for (const [p, st] of Object.entries(back.files)) {
          const s = snap.manifest.segments.findIndex((r) => r.name === st.segment);
          assert.ok(s >= 0, `${p} points at a segment the manifest does not list (round ${round})`);
          const seg = snap.segments[s]!;
          assert.equal(seg.fileOf(st.firstDoc).path, p, `round ${round}`);
          assert.equal(snap.deleted[s]![st.firstDoc], 0, `${p}'s chunks are tombstoned (round ${round})`);
        }
      }
    });

    it('a change to most files rewrites the whole table', async () => {
      const writer = ws.engine({ strategy: 'lines' });
      for (let i = 0; i < 80; i++) ws.write(`src/many${i}.ts`, `export const m${i} = ${i};\n`);
      await writer.refresh();
      for (let i = 0; i < 80; i++) ws.write(`src/many${i}.ts`, `export const m${i} = ${i + 1};\n`);
      await writer.refresh();
      const back = readBack(ws.storeDir);
      assert.equal(back.manifest.stateDelta, undefined);
      assert.equal(Object.keys(back.files).length, 82);
    });
  });

  it('a long-lived reader answers from the generation another writer committed since its last query', async () => {
    const reader = ws.engine({ strategy: 'lines' });
    await reader.refresh();
    assert.equal((await reader.search('cherry', { refresh: 'never' })).results.length, 0);
    assert.equal((await reader.search('banana', { refresh: 'never' })).results.length, 1);
    ws.write('src/c.ts', 'export function cherry() { return 3 }\n');
    await ws.engine({ strategy: 'lines' }).refresh();
    assert.deepEqual((await reader.search('cherry', { refresh: 'never' })).results.map((h) => h.path), ['src/c.ts']);
  });

  it('damage found only when a query reads it (segments are read on demand) is rebuilt and answered', async () => {
    await ws.engine({ strategy: 'lines' }).refresh();
    const garble = (section: number) => {
      const f = path.join(ws.storeDir, manifestOf(ws.storeDir).segments[0]!.name);
      fs.writeFileSync(f, withSectionFilled(fs.readFileSync(f), section, 0xff)); // same length: the header, table and trailer still check out
    };
    garble(15); // postings
    const r = await ws.engine({ strategy: 'lines' }).search('banana');
    assert.deepEqual(r.results.map((h) => h.path), ['src/b.ts']);
    assert.ok(r.diagnostics.some((d) => d.code === 'store-corrupt'), JSON.stringify(r.diagnostics));
    garble(7); // symbol names
    const s = await ws.engine({ strategy: 'lines' }).findSymbol('banana');
    assert.ok(s.diagnostics.some((d) => d.code === 'store-corrupt'), JSON.stringify(s.diagnostics));
    assert.equal(s.index.chunks, 2);
  });

  it('status reports a corrupt store without throwing', async () => {
    await ws.engine({ strategy: 'lines' }).refresh();
    fs.writeFileSync(path.join(ws.storeDir, 'manifest.json'), 'nope');
    const s = ws.engine({ strategy: 'lines' }).status();
    assert.equal(s.exists, false);
    assert.equal(s.diagnostics[0]?.code, 'store-corrupt');
  });

  it('serialises concurrent writers from several processes', async () => {
    for (let i = 0; i < 30; i++) ws.write(`src/gen${i}.ts`, `export const item${i} = ${i};\n`);
    const runs = [0, 1, 2].map(() => refreshInChild(ws.root, ws.storeDir));
    const results = await Promise.all(runs.map((r) => r.done));
    for (const r of results) assert.equal(r.code, 0, r.out);
    const engine = ws.engine({ strategy: 'lines' });
    const status = engine.status();
    assert.equal(status.files, 32);
    assert.equal(status.chunks, 32, 'each file indexed exactly once');
    const hits = await engine.search('item17', { refresh: 'never' });
    assert.deepEqual(hits.results.map((h) => h.path), ['src/gen17.ts']);
  });

  it('a writer killed at any moment leaves the old or the new index, never a torn one', async () => {
    for (let i = 0; i < 200; i++) ws.write(`src/many${i}.ts`, `export function fn${i}() { return ${i} }\n`.repeat(20));
    await ws.engine({ strategy: 'lines' }).refresh();
    for (const delayMs of [5, 40, 90, 160, 260]) {
      for (let i = 0; i < 200; i += 7) ws.write(`src/many${i}.ts`, `export function changed${i}_${delayMs}() {}\n`);
      const child = refreshInChild(ws.root, ws.storeDir);
      await new Promise((r) => setTimeout(r, delayMs));
      child.kill();
      await child.done;
      // Whatever the kill interrupted, the store opens cleanly and a refresh completes.
      const engine = ws.engine({ strategy: 'lines', lockTimeoutMs: 60000 });
      const r = await engine.search('changed7', { refresh: 'never' });
      assert.deepEqual(r.diagnostics, [], `store was torn after a kill at ${delayMs} ms`);
      const report = await engine.refresh();
      assert.equal(report.files, 202);
    }
  });

  it('a lock file always names its holder: a writer killed while taking it cannot leave an anonymous lock', async () => {
    // Three processes take and release the lock over and over while this one reads the lock
    // file: every read that finds it must find its owner, or a holder killed at that moment
    // would leave a lock nobody could tell was dead (writers then waited 30 s for it).
    fs.mkdirSync(ws.storeDir, { recursive: true });
    const lockJs = JSON.stringify(path.resolve(__dirname, '../../src/core/store/lock.js'));
    const children = [0, 1, 2].map(() =>
      spawn(process.execPath, ['-e', `
        const { acquireLock } = require(${lockJs});
        (async () => { for (let i = 0; i < 40; i++) (await acquireLock(${JSON.stringify(ws.storeDir)})).release(); })();`], { stdio: 'ignore' }),
    );
    const exited = Promise.all(children.map((c) => new Promise((r) => c.on('close', r))));
    let running = true;
    void exited.then(() => (running = false));
    const file = path.join(ws.storeDir, 'write.lock');
    let seen = 0;
    const anonymous: string[] = [];
    while (running) {
      let text: string;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch {
        await new Promise((r) => setImmediate(r));
        continue;
      }
      seen++;
      try {
        if (typeof JSON.parse(text).pid !== 'number') anonymous.push(text);
      } catch {
        anonymous.push(text);
      }
    }
    assert.ok(seen > 0, 'the lock was observed while held');
    assert.deepEqual(anonymous, []);
    assert.deepEqual(fs.readdirSync(ws.storeDir).filter((n) => n.endsWith('.tmp')), [], 'no temporary lock files left behind');
  });

  it('a lock left by a dead process is broken at once', async () => {
    fs.mkdirSync(ws.storeDir, { recursive: true });
    fs.writeFileSync(path.join(ws.storeDir, 'write.lock'), JSON.stringify({ pid: 2 ** 22 + 12345, host: os.hostname(), token: 'dead', acquiredAt: new Date().toISOString() }));
    const started = Date.now();
    const lock = await acquireLock(ws.storeDir, { timeoutMs: 5000 });
    lock.release();
    assert.ok(Date.now() - started < 2000);
  });

  it('a lock whose holder stopped its heartbeat is broken after staleMs', async () => {
    fs.mkdirSync(ws.storeDir, { recursive: true });
    const file = path.join(ws.storeDir, 'write.lock');
    fs.writeFileSync(file, JSON.stringify({ pid: process.pid, host: 'another-host', token: 'x', acquiredAt: new Date().toISOString() }));
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(file, old, old);
    const lock = await acquireLock(ws.storeDir, { timeoutMs: 5000, staleMs: 1000 });
    lock.release();
  });

  it('a live holder makes waiters time out with a clear error', async () => {
    const held = await acquireLock(ws.storeDir, { heartbeatMs: 100 });
    try {
      const child = spawn(process.execPath, ['-e', `
        const { acquireLock } = require(${JSON.stringify(path.resolve(__dirname, '../../src/core/store/lock.js'))});
        acquireLock(${JSON.stringify(ws.storeDir)}, { timeoutMs: 600, staleMs: 5000 })
          .then(() => process.exit(0), (e) => { console.log(e.name); process.exit(7); });`], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      const code = await new Promise((r) => child.on('close', r));
      assert.equal(code, 7);
      assert.match(out, /LockTimeoutError/);
    } finally {
      held.release();
    }
    assert.ok(LockTimeoutError);
  });
});
