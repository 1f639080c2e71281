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

  const stepped = new Map<string, Promise<Awaited<ReturnType<typeof importGraphInSteps>>>>();
  const pauses: string[] = [];
  /** A clock that moves a millisecond each time it is read: a slice of 0 ms pauses before each piece of work. */
  const ticking = () => {
    let t = 0;
    return () => t++;
  };
  const slices = { 'every piece of work': { ms: 0, now: ticking() }, 'one slice': { ms: Infinity, now: ticking() } };
  checkAll(
    [
      { name: 'a file importing two files, built pausing before every piece of work', input: { slice: 'every piece of work', path: 'pkg/output.py' }, expected: { imports: ['pkg/render.py', 'pkg/values.py'], importers: [], same: true } },
      { name: 'a file imported twice, built pausing before every piece of work', input: { slice: 'every piece of work', path: 'pkg/values.py' }, expected: { imports: [], importers: ['pkg/output.py', 'pkg/records.py'], same: true } },
      { name: 'a file imported once, built in one slice', input: { slice: 'one slice', path: 'pkg/render.py' }, expected: { imports: [], importers: ['pkg/output.py'], same: true } },
    ] as const,
    async ({ slice, path }) => {
      if (!stepped.has(slice)) stepped.set(slice, importGraphInSteps(store, view, async () => void pauses.push(slice), slices[slice]));
      const g = await stepped.get(slice)!;
      const whole = importGraph(store, view);
      return { imports: g.importsOf(path), importers: g.importersOf(path), same: g.edgeCount === whole.edgeCount };
    },
  );

  it('pauses after each file and each path when every slice is spent at once, once when a slice never ends', () => {
    const count = (slice: string) => pauses.filter((s) => s === slice).length;
    // The first pause, then one before each path of the tables and before each importing file's imports.
    assert.equal(count('every piece of work'), 1 + Object.keys(REPO).length + ['pkg/records.py', 'pkg/output.py'].length);
    assert.equal(count('one slice'), 1);
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
