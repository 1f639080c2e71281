// A long-lived host resolves a references lookup's imports with its view's import graph once
// its warm-up built it (the graph has resolved every module the tree imports): the answers are
// those of a process that has just opened the index and resolves them one by one.
import * as assert from 'node:assert/strict';
import { brief } from './helpers/refsOf';
import { TempWorkspace } from './helpers/workspace';

const FILES: Record<string, string> = {
  'src/core/store.ts': 'export class Store {\n  save(): void {}\n}\nexport function openStore(): Store {\n  return new Store();\n}\n',
  'src/core/index.ts': "export { openStore, Store } from './store';\n",
  'src/app.ts': "import { openStore } from './core';\nconst s = openStore();\ns.save();\n",
  'src/other.ts': 'export function openStore(): number {\n  return 1;\n}\nopenStore();\n',
  'pkg/__init__.py': 'from .models import load_model\n',
  'pkg/models.py': 'def load_model(name):\n    return name\n',
  'app.py': 'from pkg import load_model\nload_model("a")\n',
  'tools.py': 'def load_model(path):\n    return path\n\nload_model("b")\n',
  'java/com/acme/Order.java': 'package com.acme;\npublic class Order {\n  public int total() { return 1; }\n}\n',
  'java/com/shop/Cart.java': 'package com.shop;\nimport com.acme.Order;\nclass Cart {\n  int sum(Order o) { return o.total(); }\n}\n',
};

describe('references with a warmed view: imports resolved through its import graph', function () {
  this.timeout(60000);
  let ws: TempWorkspace;
  before(async () => {
    ws = new TempWorkspace(FILES);
    await ws.engine().refresh();
  });
  after(() => ws.dispose());

  for (const name of ['openStore', 'Store', 'save', 'load_model', 'total', 'Order']) {
    it(`${name}: the same references, certainties and definitions as a fresh reader's`, async () => {
      const fresh = ws.engine();
      const cold = await fresh.references(name, { refresh: 'never' });
      const warmed = ws.engine();
      await warmed.warmUp();
      const warm = await warmed.references(name, { refresh: 'never' });
      assert.deepEqual(warm.references.map(brief), cold.references.map(brief));
      assert.ok(cold.references.length > 0, `${name} has references`);
      await fresh.close();
      await warmed.close();
    });
  }

  it('after the warm-up, a certain reference still crosses files through a re-export', async () => {
    const warmed = ws.engine();
    await warmed.warmUp();
    const refs = (await warmed.references('openStore', { refresh: 'never' })).references.map(brief);
    assert.ok(refs.includes('src/app.ts:2:11 code certain → src/core/store.ts:4'), refs.join('\n'));
    await warmed.close();
  });
});
