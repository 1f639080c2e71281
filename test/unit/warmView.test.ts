// What a task text's answer reads of the whole repository (files by base name, the import
// graph) is built while a long-lived host is idle, not by its first answer, and the graph
// built in steps is the graph built at once.
import * as assert from 'node:assert/strict';
import { checkAll } from './check';
import { TempWorkspace } from './helpers/workspace';
import { IndexStore } from '../../src/core/store/store';
import { importGraph, importGraphInSteps, openView, viewKey, type View } from '../../src/core/engine/view';
import { DEFAULT_FIELD_PARAMS } from '../../src/core/index/fields';
import { filesResolvedDuring } from './helpers/resolveSpy';

const REPO = {
  'pkg/values.py': 'def convert_value(raw):\n    return int(raw)\n',
  'pkg/records.py': 'from pkg.values import convert_value\n\n\ndef as_dict(d):\n    return {k: convert_value(v) for k, v in d.items()}\n',
  'pkg/output.py': 'from pkg.render import render_rows\nfrom pkg.values import convert_value\n\n\ndef show(rows):\n    return render_rows(rows, convert_value("a"))\n',
  'pkg/render.py': 'def render_rows(rows, header):\n    return header\n',
  'lib/render.py': 'def render_page(page):\n    return page\n',
};

describe('warm-up: what task texts read of the whole repository', () => {
  let ws: TempWorkspace;
  let view: View;
  let store: IndexStore;
  before(async function () {
    this.timeout(60_000);
    ws = new TempWorkspace(REPO);
    await ws.engine().refresh();
    store = new IndexStore(ws.storeDir, ws.root);
    const snapshot = store.snapshot()!;
    view = openView(viewKey(snapshot), snapshot, { ...DEFAULT_FIELD_PARAMS });
  });
  after(() => ws.dispose());

  it('an engine warmed up holds the import graph and the base names before any answer', async () => {
    const engine = ws.engine();
    await engine.warmUp(0);
    const warmed = (engine as unknown as { view?: View }).view;
    assert.deepEqual(warmed?.graph?.importersOf('pkg/values.py'), ['pkg/output.py', 'pkg/records.py']);
    assert.deepEqual(warmed?.baseNames?.get('render.py'), ['lib/render.py', 'pkg/render.py']);
  });

  const stepped = new Map<number, Promise<Awaited<ReturnType<typeof importGraphInSteps>>>>();
  const pauses: number[] = [];
  checkAll(
    [
      { name: 'a file importing two files, built one file a step', input: { step: 1, path: 'pkg/output.py' }, expected: { imports: ['pkg/render.py', 'pkg/values.py'], importers: [], same: true } },
      { name: 'a file imported twice, built one file a step', input: { step: 1, path: 'pkg/values.py' }, expected: { imports: [], importers: ['pkg/output.py', 'pkg/records.py'], same: true } },
      { name: 'a file imported once, built in one step', input: { step: 1000, path: 'pkg/render.py' }, expected: { imports: [], importers: ['pkg/output.py'], same: true } },
    ],
    async ({ step, path }) => {
      if (!stepped.has(step)) stepped.set(step, importGraphInSteps(store, view, async () => void pauses.push(step), step));
      const g = await stepped.get(step)!;
      const whole = importGraph(store, view);
      return { imports: g.importsOf(path), importers: g.importersOf(path), same: g.edgeCount === whole.edgeCount };
    },
  );

  it('a graph built one file a step pauses more often than one built in one step', () => {
    const count = (step: number) => pauses.filter((s) => s === step).length;
    assert.ok(count(1) > count(1000), `${count(1)} pauses one file a step, ${count(1000)} in one step`);
  });
});

describe('an answer after a save', () => {
  let ws: TempWorkspace;
  before(() => (ws = new TempWorkspace(REPO)));
  after(() => ws.dispose());

  it('after a save, a task text finds the graph updated from the one before: only the saved file is resolved again', async () => {
    const engine = ws.engine();
    await engine.refresh();
    await engine.warmUp(0);
    ws.write('pkg/records.py', 'from pkg.render import render_rows\n\n\ndef as_dict(d):\n    return render_rows(d, None)\n');
    await engine.refresh({ only: ['pkg/records.py'] });
    const asked = new Set(
      await filesResolvedDuring(() =>
        engine.searchFiles('Traceback (most recent call last):\n  File "pkg/records.py", line 5, in as_dict\nTypeError: render_rows() missing 1 required positional argument', { refresh: 'never' }),
      ),
    );
    const now = (engine as unknown as { view?: View }).view;
    assert.deepEqual(now?.graph?.importersOf('pkg/render.py'), ['pkg/output.py', 'pkg/records.py']);
    assert.deepEqual(now?.graph?.importersOf('pkg/values.py'), ['pkg/output.py']);
    assert.deepEqual([...asked], ['pkg/records.py']);
  });
});
