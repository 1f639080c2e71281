// The one watcher planner (src/core/discovery/watchPlan.ts), which both the editor's watcher and
// `cairn serve`'s use: what a batch of events asks the refresh queue for, by discovery's rules,
// and how events arriving one at a time are gathered per root before planning.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { checkAll } from './check';
import { FLOOD_EVENTS, planWatchEvents, WatchBatcher, watchIgnore, type WatchEvent, type WatchPlan } from '../../src/core/discovery/watchPlan';
import { resolveDiscoveryOptions } from '../../src/core/discovery';

const root = path.resolve('/w');
const ev = (type: WatchEvent['type'], rel: string, at = root): WatchEvent => ({ type, path: path.join(at, rel) });

describe('watcher planner: what a batch of events asks for', () => {
  const discovery = resolveDiscoveryOptions({});
  const folders = new Set([path.join(root, 'lib'), path.join(root, 'v1.2')]);
  checkAll<{ events: WatchEvent[]; store?: string }, WatchPlan>(
    [
      { name: 'changed files, once each, sorted', input: { events: [ev('update', 'src/b.ts'), ev('create', 'src/a.ts'), ev('update', 'src/b.ts')] }, expected: { kind: 'paths', paths: ['src/a.ts', 'src/b.ts'] } },
      { name: 'pruned folders, secrets and files discovery never indexes', input: { events: [ev('update', 'node_modules/x/index.js'), ev('create', '.git/index.lock'), ev('update', '.env'), ev('update', 'build.o'), ev('create', 'app.log')] }, expected: { kind: 'none' } },
      { name: 'a folder moved in, and one deleted', input: { events: [ev('create', 'lib'), ev('create', 'v1.2'), ev('delete', 'old.d')] }, expected: { kind: 'paths', paths: ['lib', 'old.d', 'v1.2'] } },
      { name: 'an ignore file', input: { events: [ev('update', 'src/a.ts'), ev('update', 'docs/.gitignore')] }, expected: { kind: 'whole-root', reason: 'docs/.gitignore changed' } },
      { name: 'an ignore file inside a pruned folder (discovery never reads it)', input: { events: [ev('create', 'node_modules/pkg/.gitignore'), ev('update', 'src/a.ts')] }, expected: { kind: 'paths', paths: ['src/a.ts'] } },
      { name: "the store's own writes", input: { events: [ev('create', '.cairn/seg-1.cseg'), ev('update', 'src/a.ts')], store: '.cairn' }, expected: { kind: 'paths', paths: ['src/a.ts'] } },
      { name: 'outside the root, and the root itself', input: { events: [{ type: 'update', path: path.resolve('/elsewhere/a.ts') }, { type: 'update', path: root }] }, expected: { kind: 'none' } },
      {
        name: 'a flood (events may have been lost)',
        input: { events: Array.from({ length: FLOOD_EVENTS }, (_, i) => ev('update', `src/f${i}.ts`)) },
        expected: { kind: 'whole-root', reason: `${FLOOD_EVENTS} events at once` },
      },
    ],
    ({ events, store }) => planWatchEvents({ root, discovery, storeRel: store, isDirectory: (abs) => folders.has(abs) }, events),
  );

  it('a configured extra ignore file asks for the whole root, as .gitignore does', () => {
    const custom = resolveDiscoveryOptions({ ignoreFiles: ['.searchignore'] });
    assert.deepEqual(planWatchEvents({ root, discovery: custom }, [ev('update', 'src/.searchignore')]), { kind: 'whole-root', reason: 'src/.searchignore changed' });
    assert.deepEqual(planWatchEvents({ root, discovery: custom }, [ev('update', '.gitignore')]), { kind: 'whole-root', reason: '.gitignore changed' });
  });

  it("a folder's own exclude globs and languages leave its files out", () => {
    const scoped = resolveDiscoveryOptions({ exclude: ['gen/**'], extensions: ['.py'] });
    assert.deepEqual(planWatchEvents({ root, discovery: scoped, isDirectory: () => false }, [ev('update', 'gen/a.py'), ev('update', 'src/a.ts'), ev('update', 'src/b.py')]), { kind: 'paths', paths: ['src/b.py'] });
  });
});

describe('watcher planner: events arriving one at a time (the editor)', () => {
  const other = path.resolve('/v');
  const discovery = resolveDiscoveryOptions({});
  /** Adds `events` (root key, event) in one turn, then plans; returns the plans sent. */
  function batch(events: Array<[string, WatchEvent]>, dropped: string[] = []): Array<[string, WatchPlan]> {
    const sent: Array<[string, WatchPlan]> = [];
    let runs = 0;
    const b = new WatchBatcher(
      (key) => (key === 'w' ? { root, discovery } : key === 'v' ? { root: other, discovery } : undefined),
      (key, plan) => sent.push([key, plan]),
      () => {
        runs++;
        return { cancel: () => undefined };
      },
    );
    for (const [key, e] of events) b.add(key, e);
    for (const key of dropped) b.drop(key);
    assert.equal(runs, events.length ? 1 : 0, 'one planning per turn, however many events');
    b.flush();
    return sent;
  }
  checkAll<{ events: Array<[string, WatchEvent]>; dropped?: string[] }, Array<[string, WatchPlan]>>(
    [
      {
        name: 'a burst in two folders: one request per folder',
        input: { events: [['w', ev('update', 'a.ts')], ['v', ev('create', 'b.ts', other)], ['w', ev('update', 'c.ts')], ['w', ev('update', 'a.ts')]] },
        expected: [['w', { kind: 'paths', paths: ['a.ts', 'c.ts'] }], ['v', { kind: 'paths', paths: ['b.ts'] }]],
      },
      { name: 'a rename: the old and the new name', input: { events: [['w', ev('delete', 'old.ts')], ['w', ev('create', 'new.ts')]] }, expected: [['w', { kind: 'paths', paths: ['new.ts', 'old.ts'] }]] },
      { name: 'nothing indexed changed: no request', input: { events: [['w', ev('update', 'node_modules/x.js')], ['w', ev('update', '.env')]] }, expected: [] },
      { name: 'a folder removed before planning', input: { events: [['w', ev('update', 'a.ts')], ['v', ev('update', 'b.ts', other)]], dropped: ['v'] }, expected: [['w', { kind: 'paths', paths: ['a.ts'] }]] },
      { name: 'a folder no longer known when planned', input: { events: [['gone', ev('update', 'a.ts')]] }, expected: [] },
    ],
    ({ events, dropped }) => batch(events, dropped),
  );
});

describe('native watcher: the folders it never enters', () => {
  const root = path.resolve('/work/app');
  const [pattern, ...rest] = watchIgnore(root, path.join(root, '.cairn-store'));
  /** As @parcel/watcher matches a RegExp ignore: the whole root-relative path against `^[\s\S]*(?:source)[\s\S]*$`. */
  const ignored = (rel: string) => new RegExp(`^[\\s\\S]*(?:${(pattern as RegExp).source})[\\s\\S]*$`).test(rel);
  checkAll(
    [
      { name: 'a pruned folder at the top', input: 'node_modules', expected: true },
      { name: 'a pruned folder deep down, and what is in it', input: 'packages/web/node_modules/react/index.js', expected: true },
      { name: 'a dot folder', input: 'src/.git', expected: true },
      { name: 'a folder matching a pruned pattern (*.egg-info)', input: 'pkg/acme.egg-info/PKG-INFO', expected: true },
      { name: 'a Windows separator', input: 'lib\\build\\out.js', expected: true },
      { name: 'a file named like a pruned folder with more to its name', input: 'src/build.ts', expected: false },
      { name: 'a folder whose name only starts like one', input: 'src/distance/km.ts', expected: false },
      { name: 'a folder whose name only ends like one', input: 'src/rebuild/x.ts', expected: false },
      { name: 'a dot in a pruned name is a dot, not any character', input: 'src/xgit/a.ts', expected: false },
    ],
    ignored,
  );

  it('is one expression for every pruned folder, with the store inside the root as a path', () => {
    assert.ok(pattern instanceof RegExp);
    assert.equal(pattern.flags, '');
    assert.deepEqual(rest, [path.join(root, '.cairn-store')]);
    assert.deepEqual(watchIgnore(root, path.resolve('/elsewhere/store')).length, 1);
  });
});
