// The segments a refresh writes: a segment built in the background leaves the writer free for
// the next files, segments land in the order their builds started, a failure surfaces where the
// refresh waits for them, and the step drivers under it pause and stop as they promise.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { drainSteps, drainStepsYielding, type BuildSteps } from '../../src/core/index/buildSteps';
import { lineChunks } from '../../src/core/chunking/chunkFile';
import { DEFAULT_POLICY } from '../../src/core/chunking/policy';
import { EARLY_FLUSH_MIN_BYTES, LAST_SEGMENT_SHARE, writeBeforeTheRest } from '../../src/core/engine/refreshBuild';
import { ProgressMeter } from '../../src/core/engine/progressMeter';
import type { Uncommitted } from '../../src/core/engine/refreshCommit';
import { SegmentWriter } from '../../src/core/engine/segmentWriter';
import { IndexStore } from '../../src/core/store/store';
import type { SourceDocument } from '../../src/core/types';
import { checkAll } from './check';

function doc(name: string): SourceDocument {
  const text = `export function ${name}Function() {\n  return '${name}';\n}\n`;
  return { path: `src/${name}.ts`, text, size: text.length, mtimeMs: 1, hash: name.padEnd(64, '0'), language: 'typescript' };
}

describe('segment writer', () => {
  let dir: string;
  let store: IndexStore;
  let changes: Uncommitted;
  let writer: SegmentWriter;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-segwriter-'));
    store = new IndexStore(path.join(dir, 'store'));
    fs.mkdirSync(store.dir);
    changes = { newStates: new Map(), touched: new Map(), removed: new Set(), written: [] };
    writer = new SegmentWriter(store, new ProgressMeter(() => undefined), changes);
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const add = (name: string) => {
    const d = doc(name);
    writer.add(d, lineChunks(d, DEFAULT_POLICY), { size: d.size, mtimeMs: d.mtimeMs, ctimeMs: d.mtimeMs, ino: 1, dev: 1 });
  };
  const filesOf = (k: number) => store.loadSegment(changes.written[k]!.name).files.map((f) => f.path);

  it('files added while a segment builds in the background go to the next one, in the order the builds started', async () => {
    add('alpha');
    add('beta');
    writer.flushInBackground();
    add('gamma');
    writer.flushInBackground();
    add('delta');
    await writer.flushYielding();
    assert.equal(changes.written.length, 3);
    assert.deepEqual([filesOf(0), filesOf(1), filesOf(2)], [['src/alpha.ts', 'src/beta.ts'], ['src/gamma.ts'], ['src/delta.ts']]);
    assert.deepEqual(
      [...changes.newStates].map(([p, s]) => [p, s.segment]),
      [['src/alpha.ts', changes.written[0]!.name], ['src/beta.ts', changes.written[0]!.name], ['src/gamma.ts', changes.written[1]!.name], ['src/delta.ts', changes.written[2]!.name]],
    );
  });

  it('a background build that fails is reported where the refresh waits for it, and names no file', async () => {
    add('alpha');
    writer.flushInBackground();
    // The store folder is gone and a file stands in its place: the segment cannot be written.
    fs.rmSync(store.dir, { recursive: true });
    fs.writeFileSync(store.dir, 'not a folder');
    await assert.rejects(writer.settled(), /EEXIST|ENOTDIR/);
    assert.equal(changes.newStates.size, 0);
  });

  it('a flush with nothing added writes nothing', async () => {
    await writer.flushYielding();
    writer.flush();
    assert.deepEqual(changes.written, []);
  });
});

/** Steps that each keep the thread `ms` milliseconds, then give `value`. */
function* busySteps(count: number, ms: number): BuildSteps<string> {
  for (let k = 0; k < count; k++) {
    const until = performance.now() + ms;
    while (performance.now() < until);
    yield (k + 1) / count;
  }
  return 'built';
}

describe('build steps', () => {
  it('drained at once: the value, and every fraction in order', () => {
    const heard: number[] = [];
    assert.equal(drainSteps(busySteps(4, 0), (f) => heard.push(f)), 'built');
    assert.deepEqual(heard, [0.25, 0.5, 0.75, 1]);
  });

  it('drained yielding: other work runs between steps once a slice has passed', async () => {
    let ranAt = -1;
    let stepsDone = 0;
    setImmediate(() => (ranAt = stepsDone));
    const value = await drainStepsYielding(busySteps(6, 4), 10, () => stepsDone++);
    assert.equal(value, 'built');
    assert.ok(ranAt >= 1 && ranAt < 6, `the other work ran after step ${ranAt} of 6`);
  });

  it('drained yielding: stops with the abort reason at the next turn, without finishing', async () => {
    const controller = new AbortController();
    let stepsDone = 0;
    const run = drainStepsYielding(busySteps(100, 2), 1, () => stepsDone++, controller.signal);
    controller.abort(new Error('stop now'));
    await assert.rejects(run, /stop now/);
    assert.ok(stepsDone < 100);
  });
});

describe('the last segment is written early only when it saves a long build', () => {
  const MB = 1024 * 1024;
  const files = (...sizes: number[]) => sizes.map((size) => ({ size, mtimeMs: 0 }));
  const held = 6 * EARLY_FLUSH_MIN_BYTES;
  checkAll<{ held: number; rest: Array<ReturnType<typeof files>> }, boolean>(
    [
      { name: 'a large segment, a small rest: written first', input: { held, rest: [files(MB, MB), files(2 * MB)] }, expected: true },
      { name: 'the rest exactly the share', input: { held, rest: [files(held * LAST_SEGMENT_SHARE)] }, expected: true },
      { name: 'the rest past the share', input: { held, rest: [files(held * LAST_SEGMENT_SHARE), files(1)] }, expected: false },
      { name: 'nothing left', input: { held, rest: [] }, expected: true },
      { name: 'a small segment is never split off', input: { held: EARLY_FLUSH_MIN_BYTES - 1, rest: [files(1)] }, expected: false },
    ],
    ({ held, rest }) => writeBeforeTheRest(held, rest),
  );
});
