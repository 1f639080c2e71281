// The MCP server's freshness policy (src/mcp/freshness.ts): refresh on the first query, then at
// most once per interval; concurrent queries share one refresh; a slow refresh keeps running
// while callers get an answer; failures are reported and retried after the interval.
import type { RefreshOptions, RefreshReport } from '../../src/core/api';
import * as assert from 'node:assert/strict';

import { ThrottledRefresher } from '../../src/mcp/freshness';

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
    return new Promise((resolve, reject) => this.pending.push({ resolve, reject }));
  }

  warmUps = 0;
  async warmUp(): Promise<void> {
    this.warmUps++;
  }

  finishAll(): void {
    for (const p of this.pending.splice(0)) p.resolve(report({ changed: 1 }));
  }
}

describe('mcp freshness policy', () => {
  let clock: number;
  const now = (): number => clock;
  beforeEach(() => (clock = 1_000_000));

  it('readies the index for the next calls after each whole-root refresh, not after a refresh of some paths', async () => {
    const index = new FakeIndex();
    const f = new ThrottledRefresher(index, { minIntervalMs: 3000, now });
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
    const f = new ThrottledRefresher(index, { minIntervalMs: 3000, now });
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
    const f = new ThrottledRefresher(index, { minIntervalMs: 0, now });
    await f.ensureFresh();
    await f.ensureFresh();
    assert.equal(index.calls.length, 2);
  });

  it('concurrent queries share one refresh', async () => {
    const index = new FakeIndex();
    index.autoFinish = false;
    const f = new ThrottledRefresher(index, { now });
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
    const f = new ThrottledRefresher(index, { waitMs: 20, now });
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
    const f = new ThrottledRefresher(index, { minIntervalMs: 1000, now, log: (m) => logged.push(m) });
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
    const f = new ThrottledRefresher(index, { now });
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
