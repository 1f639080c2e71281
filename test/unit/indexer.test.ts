import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TempWorkspace } from './helpers/workspace';
import { IndexStore } from '../../src/core/store/store';
import type { Engine } from '../../src/core/engine/engine';

/** Paths of the hits for a query, in order. */
async function paths(engine: Engine, query: string): Promise<string[]> {
  const r = await engine.search(query, { limit: 50, refresh: 'never', crossReferences: false });
  return [...new Set(r.results.map((h) => h.path))];
}

describe('incremental indexing', function () {
  this.timeout(20000);
  let ws: TempWorkspace;
  let engine: Engine;

  beforeEach(async () => {
    ws = new TempWorkspace({
      'src/alpha.ts': 'export function alphaOne() {\n  return 1;\n}\n',
      'src/beta.ts': 'export function betaTwo() {\n  return 2;\n}\n',
      'docs/guide.md': '# Guide\n\nHow to use alphaOne.\n',
    });
    engine = ws.engine({ strategy: 'lines' });
    const first = await engine.refresh();
    assert.equal(first.files, 3);
    assert.equal(first.added, 3);
  });
  afterEach(() => ws.dispose());

  it('a no-op refresh changes nothing', async () => {
    const gen = engine.status().generation;
    const r = await engine.refresh();
    assert.deepEqual([r.added, r.changed, r.removed, r.unchanged, r.chunksAdded], [0, 0, 0, 3, 0]);
    assert.equal(engine.status().generation, gen, 'nothing committed');
  });

  describe('hits on files changed since indexing say so, with or without previews', () => {
    for (const previewLines of [3, 0]) {
      it(`previewLines ${previewLines}`, async () => {
        const hitFor = async (q: string) => (await engine.search(q, { limit: 1, refresh: 'never', previewLines })).results[0];
        const touched = path.join(ws.root, 'src/beta.ts');
        fs.utimesSync(touched, new Date(), new Date(Date.now() + 5000)); // same content, new mtime
        ws.write('src/alpha.ts', '// moved down\nexport function alphaOne() {\n  return 1;\n}\n');
        const alpha = await hitFor('alphaOne');
        assert.deepEqual([alpha?.path, alpha?.stale, alpha?.staleReason], ['src/alpha.ts', true, 'modified']);
        const beta = await hitFor('betaTwo');
        assert.deepEqual([beta?.path, beta?.stale], ['src/beta.ts', undefined]);
        assert.equal(beta?.preview === '', previewLines === 0);
        fs.rmSync(touched);
        const gone = await hitFor('betaTwo');
        assert.deepEqual([gone?.stale, gone?.staleReason], [true, 'deleted']);
      });
    }
  });

  it('warming up the save-time parsers changes nothing in the index, and a save after it is chunked by definitions', async () => {
    const ast = ws.engine({ strategy: 'ast', storeDir: path.join(ws.storeDir, '..', 'ast-store') });
    await ast.warmUp(); // no index yet: nothing to warm, and no error
    await ast.refresh();
    const gen = ast.status().generation;
    await ast.warmUp();
    await ast.warmUp(); // warm already: cheap
    assert.equal(ast.status().generation, gen);
    ws.write('src/alpha.ts', 'export function alphaOne() {\n  return 1;\n}\nexport function alphaTwo() {\n  return 2;\n}\n');
    await ast.refresh({ only: ['src/alpha.ts'] });
    const hit = (await ast.findSymbol('alphaTwo', { refresh: 'never' })).results[0];
    assert.deepEqual([hit?.path, hit?.startLine, hit?.kind], ['src/alpha.ts', 4, 'function']);
  });

  it('adds a new file', async () => {
    ws.write('src/gamma.ts', 'export function gammaThree() {}\n');
    const r = await engine.refresh();
    assert.equal(r.added, 1);
    assert.deepEqual(await paths(engine, 'gammaThree'), ['src/gamma.ts']);
  });

  it('re-chunks a changed file and forgets its old content', async () => {
    ws.write('src/alpha.ts', 'export function zulu() {\n  return 10;\n}\n');
    const r = await engine.refresh();
    assert.deepEqual([r.changed, r.chunksAdded, r.chunksRemoved], [1, 1, 1]);
    assert.deepEqual(await paths(engine, 'zulu'), ['src/alpha.ts']);
    assert.deepEqual(await paths(engine, 'alphaone'), ['docs/guide.md']);
  });

  it('a touched file with the same content is hashed but not re-chunked', async () => {
    const abs = path.join(ws.root, 'src/beta.ts');
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(abs, later, later);
    const r = await engine.refresh();
    assert.deepEqual([r.changed, r.chunksAdded, r.unchanged], [0, 0, 3]);
    // The new stat is remembered: the next refresh commits nothing (changeDetection.test.ts
    // covers when a stat this recent is trusted without hashing).
    const gen = engine.status().generation;
    await engine.refresh();
    assert.equal(engine.status().generation, gen);
  });

  it('removes a deleted file', async () => {
    ws.remove('src/beta.ts');
    const r = await engine.refresh();
    assert.equal(r.removed, 1);
    assert.deepEqual(await paths(engine, 'betaTwo'), []);
    assert.equal(engine.status().files, 2);
  });

  it('follows a rename', async () => {
    ws.rename('src/beta.ts', 'lib/beta-renamed.ts');
    const r = await engine.refresh();
    assert.deepEqual([r.added, r.removed], [1, 1]);
    assert.deepEqual(await paths(engine, 'betaTwo'), ['lib/beta-renamed.ts']);
  });

  it('refreshes only the given paths', async () => {
    ws.write('src/alpha.ts', 'export function xray() {}\n');
    ws.write('src/beta.ts', 'export function whiskey() {}\n');
    const r = await engine.refresh({ only: ['src/alpha.ts'] });
    assert.equal(r.changed, 1);
    assert.deepEqual(await paths(engine, 'xray'), ['src/alpha.ts']);
    assert.deepEqual(await paths(engine, 'whiskey'), [], 'beta was not asked for');
    // A path given in `only` that no longer exists is removed.
    ws.remove('src/beta.ts');
    const r2 = await engine.refresh({ only: ['src/beta.ts'] });
    assert.equal(r2.removed, 1);
  });

  it('editing .cairnignore removes and re-adds only the affected files', async () => {
    ws.write('.cairnignore', 'docs/\n');
    const r = await engine.refresh();
    assert.equal(r.removed, 1);
    assert.equal(r.chunksAdded, 1, 'only the .cairnignore file itself is new');
    assert.deepEqual(await paths(engine, 'guide'), []);
    ws.write('.cairnignore', '# nothing ignored\n');
    const r2 = await engine.refresh();
    assert.equal(r2.added, 1);
    assert.equal(r2.changed, 1, '.cairnignore itself changed');
    assert.deepEqual(await paths(engine, 'guide'), ['docs/guide.md']);
  });

  it('chunk ids are stable across runs and survive a rebuild', async () => {
    const store = new IndexStore(ws.storeDir);
    const ids = () => {
      const state = store.readState(store.readManifest()!);
      return Object.fromEntries([...state.entries()].map(([p, s]) => [p, store.chunkIdsOf(s)]));
    };
    const before = ids();
    assert.equal(Object.values(before).flat().length, engine.status().chunks);
    await engine.refresh({ rebuild: true });
    assert.deepEqual(ids(), before);
  });

  it('changing the chunking policy re-chunks every file', async () => {
    const other = ws.engine({ strategy: 'lines', policy: { lineChunkChars: { code: 20, prose: 20, config: 20 } } });
    const r = await other.refresh();
    assert.equal(r.changed, 3);
    assert.ok(r.diagnostics.some((d) => d.code === 'config-changed'));
  });

  it('files named like Object.prototype members are ordinary files', async () => {
    ws.write('__proto__', 'Proto notes mention zebrafish\n');
    ws.write('constructor', 'Constructor notes mention okapi\n');
    const r = await engine.refresh();
    assert.equal(r.added, 0, 'extensionless names that are not well-known are not eligible');
    ws.write('lib/__proto__.ts', 'export const zebrafish = 1;\n');
    ws.write('lib/constructor.ts', 'export const okapi = 2;\n');
    await engine.refresh();
    assert.deepEqual(await paths(engine, 'zebrafish'), ['lib/__proto__.ts']);
    assert.deepEqual(await paths(engine, 'okapi'), ['lib/constructor.ts']);
    await engine.refresh();
    assert.equal(engine.status().files, 5);
  });

  it('scores depend on what is indexed, not on the refreshes that produced it', async () => {
    for (let i = 0; i < 4; i++) {
      ws.write(`src/churn${i}.ts`, `export function churn${i}() { return alphaOne() + ${i} }\n`);
      await engine.refresh();
      ws.write(`src/churn${i}.ts`, `export function churn${i}() { return betaTwo() * ${i} }\n`);
      await engine.refresh();
    }
    const incremental = await engine.search('alphaOne betaTwo return', { limit: 20, refresh: 'never' });
    const cold = ws.engine({ strategy: 'lines', storeDir: `${ws.storeDir}-cold` });
    await cold.refresh();
    const rebuilt = await cold.search('alphaOne betaTwo return', { limit: 20, refresh: 'never' });
    assert.deepEqual(incremental.results.map((h) => [h.docid, h.score]), rebuilt.results.map((h) => [h.docid, h.score]));
  });

  it('merges segments instead of letting them pile up', async () => {
    for (let i = 0; i < 12; i++) {
      ws.write(`src/file${i}.ts`, `export const value${i} = ${i};\n`);
      await engine.refresh();
    }
    const status = engine.status();
    assert.ok(status.segments <= 8, `${status.segments} segments`);
    assert.equal(status.files, 15);
    for (let i = 0; i < 12; i++) assert.deepEqual(await paths(engine, `value${i}`), [`src/file${i}.ts`]);
  });
});

