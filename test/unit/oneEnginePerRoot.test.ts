// One engine per root per process: long-lived front ends open roots only through EngineHost,
// which holds one engine per root; only one-shot front ends and tools beside the engine make
// an Engine of their own.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EngineHost } from '../../src/core/engine/host';
import { checkAll } from './check';
import { SRC, sourceFiles } from './helpers/sourceTree';
import { GRAMMARS_DIR, TempWorkspace } from './helpers/workspace';


/** Where `new Engine(` may appear: the host, the one-shot CLI, and eval and bench (tools beside the engine). */
const MAY_CONSTRUCT = /^(core\/engine\/host\.ts|cli\/engineSetup\.ts|eval\/.*|bench\/.*)$/;

describe('one engine per root per process', function () {
  this.timeout(30_000);

  it('no front end but the one-shot CLI makes an Engine itself: the others open roots in an EngineHost', () => {
    const constructing = sourceFiles(SRC, (name) => name.endsWith('.ts'))
      .filter((f) => /\bnew Engine\(/.test(fs.readFileSync(f, 'utf8')))
      .map((f) => path.relative(SRC, f).split(path.sep).join('/'));
    assert.ok(constructing.includes('core/engine/host.ts'), 'the host constructs engines');
    assert.deepEqual(constructing.filter((f) => !MAY_CONSTRUCT.test(f)), []);
  });

  let ws: TempWorkspace;
  let host: EngineHost;
  beforeEach(() => {
    ws = new TempWorkspace({ 'src/a.ts': 'export function fetchUser() {}\n' });
    host = new EngineHost();
  });
  afterEach(async () => {
    await host.closeAll();
    await ws.dispose();
  });

  checkAll<{ key: string; root: (ws: TempWorkspace) => string }, string>(
    [
      { name: 'the same key again: its engine is replaced, still one', input: { key: 'a', root: (w) => w.root }, expected: 'opened: a' },
      { name: 'another key for the same root: refused, naming the key that holds it', input: { key: 'b', root: (w) => w.root }, expected: 'is already open in this process (as a)' },
      { name: 'another key for the same root spelled differently: refused', input: { key: 'b', root: (w) => path.join(w.root, 'src', '..') }, expected: 'is already open in this process (as a)' },
    ],
    async ({ key, root }) => {
      await host.open('a', { root: ws.root, storeDir: ws.storeDir, grammarsDir: GRAMMARS_DIR, workers: 0 });
      const first = host.engine('a');
      try {
        await host.open(key, { root: root(ws), storeDir: ws.storeDir, grammarsDir: GRAMMARS_DIR, workers: 0 });
      } catch (e) {
        return (e as Error).message.replace(/^.* is already/, 'is already');
      }
      assert.notEqual(host.engine(key), first);
      return `opened: ${key}`;
    },
  );
});
