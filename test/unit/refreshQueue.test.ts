// The refresh queue every long-lived host schedules with (src/core/engine/refreshQueue.ts): as a
// freshness policy, refresh on the first query, then at most once per interval (or never, with a
// watcher); concurrent queries share one refresh; a slow refresh keeps running while callers get
// an answer; failures are reported and retried after the interval. As a queue: requests are
// coalesced, file events wait for quiet, a rebuild supersedes, pausing keeps the work.
import type { RefreshOptions, RefreshReport } from '../../src/core/api';
import * as assert from 'node:assert/strict';

import { checkAll } from './check';
import { QUERY_WAIT_MS, RefreshQueue, type RefreshableIndex } from '../../src/core/engine/refreshQueue';

function report(over: Partial<RefreshReport> = {}): RefreshReport {
  return {
    at: new Date(0).toISOString(),
    durationMs: 5,
    filesScanned: 3,
    added: 0,
    changed: 0,
    removed: 0,
    unchanged: 3,
    chunksAdded: 0,
    chunksRemoved: 0,
    generation: 1,
    files: 3,
    chunks: 9,
    skipped: [],
    skippedByReason: {},
    diagnostics: [],
    rebuilt: false,
    ...over,
  };
}

/** An index whose refreshes are recorded and finish when the test says so. */
class FakeIndex {
  calls: RefreshOptions[] = [];
  private pending: Array<{ resolve: (r: RefreshReport) => void; reject: (e: Error) => void }> = [];
  autoFinish = true;
  fail?: Error;

  refresh(options: RefreshOptions): Promise<RefreshReport> {
    this.calls.push(options);
    if (this.fail) return Promise.reject(this.fail);
    if (this.autoFinish) return Promise.resolve(report());
    return new Promise((resolve, reject) => {
      this.pending.push({ resolve, reject });
      options.signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
    });
  }

  warmUps = 0;
  async warmUp(): Promise<void> {
    this.warmUps++;
  }

  finishAll(): void {
    for (const p of this.pending.splice(0)) p.resolve(report({ changed: 1 }));
  }
}

describe('refresh queue: freshness policy', () => {
  let clock: number;
  const now = (): number => clock;
  beforeEach(() => (clock = 1_000_000));

  it('readies the index for the next calls after each whole-root refresh, not after a refresh of some paths', async () => {
    const index = new FakeIndex();
    const f = new RefreshQueue(index, { minIntervalMs: 3000, now });
    await f.ensureFresh();
    assert.equal(index.warmUps, 1);
    await f.refreshNow(['src/a.ts']);
    assert.equal(index.warmUps, 1);
    clock += 3000;
    await f.ensureFresh();
    assert.equal(index.warmUps, 2);
  });

  it('refreshes on the first query, then not again within the interval, then again after it', async () => {
    const index = new FakeIndex();
    const f = new RefreshQueue(index, { minIntervalMs: 3000, now });
    assert.equal((await f.ensureFresh()).kind, 'refreshed');
    clock += 2999;
    const recent = await f.ensureFresh();
    assert.deepEqual(recent, { kind: 'recent', checkedAgoMs: 2999 });
    assert.equal(index.calls.length, 1);
    clock += 1;
    assert.equal((await f.ensureFresh()).kind, 'refreshed');
    assert.equal(index.calls.length, 2);
    assert.equal(index.calls[0]?.only, undefined, 'a whole-root refresh');
  });

  it('with interval 0 refreshes before every query', async () => {
    const index = new FakeIndex();
    const f = new RefreshQueue(index, { minIntervalMs: 0, now });
    await f.ensureFresh();
    await f.ensureFresh();
    assert.equal(index.calls.length, 2);
  });

  it('concurrent queries share one refresh', async () => {
    const index = new FakeIndex();
    index.autoFinish = false;
    const f = new RefreshQueue(index, { now });
    const both = Promise.all([f.ensureFresh(), f.ensureFresh()]);
    await new Promise((r) => setImmediate(r));
    index.finishAll();
    const states = await both;
    assert.deepEqual(states.map((s) => s.kind), ['refreshed', 'refreshed']);
    assert.equal(index.calls.length, 1);
  });

  it('answers "refreshing" after the wait while the refresh goes on, and records it when done', async () => {
    const index = new FakeIndex();
    index.autoFinish = false;
    const f = new RefreshQueue(index, { waitMs: 20, now });
    const state = await f.ensureFresh();
    assert.equal(state.kind, 'refreshing');
    assert.ok(f.describe().running, 'describe shows the running refresh');
    assert.equal((await f.ensureFresh()).kind, 'refreshing', 'a second query joins the same refresh');
    assert.equal(index.calls.length, 1);
    index.finishAll();
    await f.close();
    assert.equal(f.describe().lastCheckedAtMs, clock);
    assert.equal(f.describe().running, undefined);
  });

  it('reports a failure, and retries it only after the interval', async () => {
    const index = new FakeIndex();
    index.fail = new Error('disk full');
    const logged: string[] = [];
    const f = new RefreshQueue(index, { minIntervalMs: 1000, now, log: (m) => logged.push(m) });
    assert.deepEqual(await f.ensureFresh(), { kind: 'failed', message: 'disk full' });
    assert.deepEqual(await f.ensureFresh(), { kind: 'recent', checkedAgoMs: 0, lastFailure: 'disk full' });
    assert.equal(index.calls.length, 1);
    assert.deepEqual(logged, ['index refresh failed: disk full']);
    clock += 1000;
    index.fail = undefined;
    assert.equal((await f.ensureFresh()).kind, 'refreshed');
    assert.equal(f.describe().lastFailure, undefined);
  });

  it('refreshNow always runs (only the given paths), after any refresh in progress', async () => {
    const index = new FakeIndex();
    index.autoFinish = false;
    const f = new RefreshQueue(index, { now });
    const first = f.ensureFresh();
    const explicit = f.refreshNow(['src/a.ts']);
    await new Promise((r) => setImmediate(r));
    assert.equal(index.calls.length, 1, 'the explicit refresh waits for the one running');
    index.finishAll();
    await first;
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(index.calls[1]?.only, ['src/a.ts']);
    index.finishAll();
    assert.equal((await explicit).kind, 'refreshed');
  });
});

describe('refresh queue: scheduling', () => {
  const tick = () => new Promise((r) => setImmediate(r));
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const asked = (index: FakeIndex) => index.calls.map((c) => (c.rebuild ? 'rebuild' : c.only ? c.only.join(',') : 'all'));

  it('coalesces requests that arrive while a refresh runs into one next refresh', async () => {
    const index = new FakeIndex();
    index.autoFinish = false;
    const q = new RefreshQueue(index);
    const first = q.request({ only: ['a.ts'] });
    const later = [q.request({ only: ['b.ts'] }), q.request({ only: ['c.ts'] }), q.request({ only: ['b.ts'] })];
    await tick();
    assert.deepEqual(asked(index), ['a.ts']);
    index.finishAll();
    await first;
    await tick();
    assert.deepEqual(asked(index), ['a.ts', 'b.ts,c.ts']);
    index.finishAll();
    const reports = await Promise.all(later);
    assert.ok(reports.every((r) => r?.changed === 1), 'every caller gets the report of the run that covered it');
  });

  it('a whole-root request absorbs queued paths', async () => {
    const index = new FakeIndex();
    index.autoFinish = false;
    const q = new RefreshQueue(index);
    void q.request({ only: ['a.ts'] });
    void q.request({ only: ['b.ts'] });
    void q.request({});
    await tick();
    index.finishAll();
    await tick();
    assert.deepEqual(asked(index), ['a.ts', 'all']);
    index.finishAll();
    await q.whenIdle();
  });

  it('file events wait until they have been quiet for the debounce time, then run once', async () => {
    const index = new FakeIndex();
    const q = new RefreshQueue(index, { debounceMs: 40 });
    void q.request({ only: ['a.ts'] }, true);
    await sleep(25);
    void q.request({ only: ['b.ts'] }, true);
    await sleep(25);
    assert.deepEqual(asked(index), [], 'still within the quiet time of the last event');
    await q.whenIdle();
    assert.deepEqual(asked(index), ['a.ts,b.ts']);
  });

  it('an explicit request does not wait for quiet, and takes queued file events along', async () => {
    const index = new FakeIndex();
    const q = new RefreshQueue(index, { debounceMs: 10_000 });
    void q.request({ only: ['a.ts'] }, true);
    await q.request({ only: ['b.ts'] });
    assert.deepEqual(asked(index), ['a.ts,b.ts']);
  });

  it('a rebuild cancels the running refresh and runs with its work', async () => {
    const index = new FakeIndex();
    index.autoFinish = false;
    const q = new RefreshQueue(index);
    const first = q.request({ only: ['a.ts'] });
    await tick();
    const rebuild = q.request({ rebuild: true });
    await tick();
    assert.deepEqual(asked(index), ['a.ts', 'rebuild']);
    index.finishAll();
    const [a, r] = await Promise.all([first, rebuild]);
    assert.equal(a?.changed, 1, 'the cancelled request is answered by the rebuild');
    assert.equal(r?.changed, 1);
  });

  it('pausing cancels the running refresh and keeps its work for resume', async () => {
    const index = new FakeIndex();
    index.autoFinish = false;
    const q = new RefreshQueue(index);
    const waiting = q.request({ only: ['a.ts'] });
    await tick();
    q.pause();
    assert.equal(await waiting, undefined, 'nobody is kept waiting while paused');
    assert.deepEqual(q.state().kind, 'paused');
    assert.equal(q.state().queued, true);
    assert.equal(await q.request({ only: ['b.ts'] }), undefined);
    await q.whenIdle();
    assert.deepEqual(asked(index), ['a.ts']);
    index.autoFinish = true;
    q.resume();
    await q.whenIdle();
    assert.deepEqual(asked(index), ['a.ts', 'a.ts,b.ts']);
    assert.equal(q.state().queued, false);
  });

  it('with a watcher, a query waits only for queued work, never for a whole-root check', async () => {
    const index = new FakeIndex();
    const q = new RefreshQueue(index, { debounceMs: 60_000, minIntervalMs: 0 });
    q.watching = true;
    q.markVerified();
    assert.equal((await q.ensureFresh()).kind, 'recent');
    assert.deepEqual(asked(index), []);
    void q.request({ only: ['a.ts'] }, true);
    const state = await q.ensureFresh();
    assert.equal(state.kind, 'refreshed', 'the edit the watcher saw is indexed before the answer, without waiting for quiet');
    assert.deepEqual(asked(index), ['a.ts']);
    assert.equal(q.describe().watching, true);
  });

  it('a failed refresh rejects its callers and shows in the state until one succeeds', async () => {
    const index = new FakeIndex();
    index.fail = new Error('disk full');
    const q = new RefreshQueue(index);
    await assert.rejects(q.request({ only: ['a.ts'] }), /disk full/);
    assert.deepEqual([q.state().kind, q.state().error], ['error', 'disk full']);
    index.fail = undefined;
    await q.request({ only: ['a.ts'] });
    assert.equal(q.state().kind, 'idle');
  });

  it('close cancels the running refresh and answers queued callers', async () => {
    const index = new FakeIndex();
    index.autoFinish = false;
    const q = new RefreshQueue(index);
    const running = q.request({ only: ['a.ts'] });
    const queued = q.request({ only: ['b.ts'] });
    await tick();
    await q.close();
    await assert.rejects(running, (e: Error) => e.name === 'AbortError');
    assert.equal(await queued, undefined);
    assert.equal(await q.request({}), undefined, 'a closed queue runs nothing');
    assert.deepEqual(asked(index), ['a.ts']);
  });
});


describe('refresh queue: a query never waits long behind a big refresh', () => {
  const tick = () => new Promise((r) => setImmediate(r));

  /** A watched root whose refresh of `paths` runs until the test finishes it, reporting `pending` on start. */
  function watchedBusy(pending: string[], over: Partial<RefreshableIndex> = {}): { q: RefreshQueue; index: FakeIndex } {
    const index = new FakeIndex();
    index.autoFinish = false;
    const refresh = index.refresh.bind(index);
    Object.assign(index, {
      refresh: (options: RefreshOptions) => {
        options.onPending?.(pending);
        return refresh(options);
      },
      ...over,
    });
    const q = new RefreshQueue(index, { debounceMs: 60_000 });
    q.watching = true;
    q.markVerified();
    return { q, index };
  }

  const bigChange = Array.from({ length: 1500 }, (_, i) => `src/f${i}.ts`);

  checkAll<{ waitMs?: number; queuedAfter?: string[] }, { kind: string; pending: number; withinBound: boolean; statePending: number }>(
    [
      { name: 'by default a query answers within the bound (not after the refresh), listing what the refresh has left', input: {}, expected: { kind: 'refreshing', pending: 1500, withinBound: true, statePending: 1500 } },
      { name: 'a shorter wait asked for (the watcher settle took part of it) is kept', input: { waitMs: 50 }, expected: { kind: 'refreshing', pending: 1500, withinBound: true, statePending: 1500 } },
      { name: 'paths queued behind the running refresh are pending too', input: { queuedAfter: ['lib/new.ts'] }, expected: { kind: 'refreshing', pending: 1501, withinBound: true, statePending: 1501 } },
    ],
    async ({ waitMs, queuedAfter }) => {
      const { q, index } = watchedBusy(bigChange);
      void q.request({ only: bigChange }).catch(() => undefined);
      await tick();
      if (queuedAfter) void q.request({ only: queuedAfter }, true).catch(() => undefined);
      const started = Date.now();
      const state = await q.ensureFresh(waitMs === undefined ? {} : { waitMs });
      const took = Date.now() - started;
      const result = { kind: state.kind, pending: state.kind === 'refreshing' ? state.pending.length : 0, withinBound: took <= (waitMs ?? QUERY_WAIT_MS) + 200, statePending: q.state().pending };
      index.finishAll();
      await q.close();
      return result;
    },
  );

  it('a refresh known to leave many files is not waited for: the query answers at once', async () => {
    const { q, index } = watchedBusy(bigChange);
    void q.request({ only: bigChange }).catch(() => undefined);
    await tick();
    const started = Date.now();
    const state = await q.ensureFresh();
    assert.deepEqual({ kind: state.kind, pending: state.kind === 'refreshing' ? state.pending.length : 0, atOnce: Date.now() - started < 100 }, { kind: 'refreshing', pending: 1500, atOnce: true });
    index.finishAll();
    await q.close();
  });

  it('a query with no index to answer from waits for the build', async () => {
    const index = new FakeIndex();
    index.autoFinish = false;
    const q = new RefreshQueue(Object.assign(index, { hasIndex: () => false }), { waitMs: 10, now: Date.now });
    setTimeout(() => index.finishAll(), 100);
    assert.equal((await q.ensureFresh()).kind, 'refreshed');
    await q.close();
  });

  it('a refresh of a few files (a save) is waited for past the bound', async () => {
    const { q, index } = watchedBusy(['a.ts']);
    void q.request({ only: ['a.ts'] });
    setTimeout(() => index.finishAll(), 150);
    assert.equal((await q.ensureFresh({ waitMs: 20 })).kind, 'refreshed');
    await q.close();
  });

  it('once the refresh ends, nothing is pending and the next query waits for nothing', async () => {
    const { q, index } = watchedBusy(bigChange);
    void q.request({ only: bigChange });
    await tick();
    assert.equal((await q.ensureFresh({ waitMs: 10 })).kind, 'refreshing');
    index.finishAll();
    await q.whenIdle();
    assert.equal(q.state().pending, 0);
    assert.equal((await q.ensureFresh()).kind, 'recent');
    await q.close();
  });

  it('a refresh whose files have all landed (merging, recording its summary) is not waited for', async () => {
    const index = new FakeIndex();
    index.autoFinish = false;
    const refresh = index.refresh.bind(index);
    index.refresh = (options: RefreshOptions) => {
      options.onPending?.(bigChange);
      options.onPending?.([]);
      return refresh(options);
    };
    const q = new RefreshQueue(index, { debounceMs: 0 });
    q.watching = true;
    q.markVerified();
    void q.request({ only: bigChange }).catch(() => undefined);
    await tick();
    const started = Date.now();
    const state = await q.ensureFresh();
    assert.deepEqual({ kind: state.kind, atOnce: Date.now() - started < 100 }, { kind: 'recent', atOnce: true });
    index.finishAll();
    await q.close();
  });
});

describe('refresh queue: a big change from file events waits until they are quiet', () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const QUIET = { quietMs: 120, maxMs: 400 };
  const many = Array.from({ length: 40 }, (_, i) => `src/f${i}.ts`);

  /** A watched root with the server's debounce (none) and short quiet times; when each refresh started, from the first request. */
  function watched(): { q: RefreshQueue; index: FakeIndex; startedAt: () => number[] } {
    const index = new FakeIndex();
    const q = new RefreshQueue(index, { debounceMs: 0, bigChangeQuiet: QUIET });
    q.watching = true;
    q.markVerified();
    const t0 = Date.now();
    const times: number[] = [];
    const refresh = index.refresh.bind(index);
    index.refresh = (options: RefreshOptions) => {
      times.push(Date.now() - t0);
      return refresh(options);
    };
    return { q, index, startedAt: () => times };
  }

  // [what, the requests' gaps in ms and what each asks for, when the first refresh may start (from, to)]
  const cases: Array<[string, Array<[number, string[] | undefined]>, [number, number]]> = [
    ['a save starts at once', [[0, ['src/a.ts']]], [0, 60]],
    ['a whole-root check (a flood, an ignore file changed) waits for quiet', [[0, undefined]], [QUIET.quietMs - 10, QUIET.quietMs + 80]],
    ['more paths than a save wait for quiet', [[0, many]], [QUIET.quietMs - 10, QUIET.quietMs + 80]],
    ['events that go on push the start back', [[0, undefined], [80, ['src/a.ts']], [80, ['src/b.ts']]], [160 + QUIET.quietMs - 10, 160 + QUIET.quietMs + 80]],
    ['…but no further than the longest wait', [[0, undefined], ...Array.from({ length: 8 }, (): [number, string[]] => [80, ['src/a.ts']])], [QUIET.maxMs - 10, QUIET.maxMs + 80]],
  ];
  for (const [name, requests, [from, to]] of cases) {
    it(name, async () => {
      const { q, startedAt } = watched();
      for (const [gap, only] of requests) {
        if (gap) await sleep(gap);
        void q.request(only ? { only } : {}, true);
      }
      while (startedAt().length === 0) await sleep(5);
      const at = startedAt()[0] as number;
      assert.ok(at >= from && at <= to, `started at ${at} ms, expected ${from}–${to}`);
      // Events that came before the start are one refresh.
      if (requests.reduce((n, [gap]) => n + gap, 0) < at) assert.equal(startedAt().length, 1, 'one refresh for all the events');
      await q.close();
    });
  }

  it('a query meanwhile answers at once from the index as it is, saying a refresh is coming', async () => {
    const { q, startedAt } = watched();
    void q.request({ only: many }, true);
    const started = Date.now();
    const state = await q.ensureFresh();
    assert.deepEqual({ kind: state.kind, pending: state.kind === 'refreshing' ? state.pending.length : -1, atOnce: Date.now() - started < 50, ran: startedAt().length }, { kind: 'refreshing', pending: 40, atOnce: true, ran: 0 });
    await q.close();
  });

  it('an explicit refresh does not wait for quiet', async () => {
    const { q, startedAt } = watched();
    void q.request({}, true);
    await q.refreshNow();
    assert.ok((startedAt()[0] as number) < 60, `started at ${startedAt()[0]} ms`);
    await q.close();
  });
});
