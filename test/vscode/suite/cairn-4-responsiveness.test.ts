// The extension host stays responsive while a big job is indexed: parsing and index building
// happen on worker threads, so the host's event loop is never held up by Cairn. While thousands of
// generated files are indexed, a 10 ms interval timer and a trivial command run continuously.
//
// What is measured is the time the extension host THREAD spent running between two ticks (its
// CPU time, from process.threadCpuUsage), not wall-clock drift alone: on a shared 2-core machine
// the OS may not schedule the thread for a few hundred ms while chromium, the VS Code server and
// the indexing threads compete. Wall-clock drift is still measured and reported.
//
// The host thread is shared with VS Code itself, which now and then spawns ripgrep for a workspace
// file search or collects garbage for tens of ms. So a CPU profile is recorded during the job and
// every stretch over the limit is attributed: it fails the test when Cairn's code was on the stack
// for most of it, and is reported (with its top frames) when it was VS Code's own work.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as inspector from 'node:inspector';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { formatNumber } from '../../../src/vscode/format';
import { api, fixturePath, poll, ready } from './cairnHelpers';
import { click, screenshot, uiAvailable, waitForText } from './ui';

const FILES = 2000;
const MAX_BLOCK_MS = 50;

type ThreadCpu = (previous?: NodeJS.CpuUsage) => NodeJS.CpuUsage;
const threadCpuUsage = (process as unknown as { threadCpuUsage?: ThreadCpu }).threadCpuUsage?.bind(process);
/** CPU ms this thread used since `since`. */
const cpuMs = (since: NodeJS.CpuUsage) => {
  const d = threadCpuUsage!(since);
  return (d.user + d.system) / 1000;
};

function pythonModule(i: number): string {
  const lines = [`"""Generated module ${i} for the responsiveness test."""`, '', 'import math', ''];
  for (let c = 0; c < 3; c++) {
    lines.push(`class Shape${i}x${c}:`, `    """A generated shape number ${c} of module ${i}."""`, '', '    def __init__(self, size: float) -> None:', '        self.size = size', '');
    for (let m = 0; m < 4; m++) lines.push(`    def measure_${m}_${i}(self, factor: float) -> float:`, `        return math.sqrt(self.size * factor + ${m})`, '');
  }
  lines.push(`def build_shapes_${i}(n: int) -> list:`, `    return [Shape${i}x0(k) for k in range(n)]`, '');
  return lines.join('\n');
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Samples the extension host thread's stacks; CAIRN_PROFILE=1 also keeps the profile as an artifact. */
async function startProfiler(): Promise<{ stop(): Promise<CpuProfile> }> {
  const session = new inspector.Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 1000 });
  await post('Profiler.start');
  return {
    async stop() {
      const { profile } = (await post('Profiler.stop')) as { profile: CpuProfile };
      session.disconnect();
      if (process.env.CAIRN_PROFILE) fs.writeFileSync(path.join(process.env.VSCODE_TEST_ARTIFACTS ?? '/tmp', 'exthost.cpuprofile'), JSON.stringify(profile));
      return profile;
    },
  };
}

/** A stretch of the host thread between two timer ticks, on the monotonic clock of the profile (µs). */
interface Stall {
  startUs: number;
  endUs: number;
  busyMs: number;
}

const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * Who ran during a stall: the share of the running (non-idle) samples with a frame of Cairn's
 * bundle on the stack, and the heaviest stacks' leaf frames.
 */
function attribute(profile: CpuProfile, stall: Stall, cairnDir: string): { samples: number; cairnShare: number; top: string[] } {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const frame = (id: number) => {
    const f = nodes.get(id)!.callFrame;
    return `${f.functionName || '(anonymous)'} ${path.basename(f.url)}:${f.lineNumber + 1}`;
  };
  let t = profile.startTime;
  let samples = 0;
  let cairn = 0;
  const leaves = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    const id = profile.samples[i]!;
    if (t < stall.startUs || t > stall.endUs || nodes.get(id)!.callFrame.functionName === '(idle)') continue;
    samples++;
    const leaf = frame(id);
    leaves.set(leaf, (leaves.get(leaf) ?? 0) + 1);
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      if (nodes.get(n)!.callFrame.url.includes(cairnDir)) {
        cairn++;
        break;
      }
    }
  }
  const top = [...leaves].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([k, v]) => `${k} ×${v}`);
  return { samples, cairnShare: samples ? cairn / samples : 1, top };
}

describe('Cairn: responsiveness', () => {
  const dir = () => fixturePath('generated');

  after(async function () {
    this.timeout(120000);
    const a = await api();
    a.services.engine.resume();
    fs.rmSync(dir(), { recursive: true, force: true });
    await a.services.engine.refresh(undefined, ['generated']);
    await a.client.whenIdle();
  });

  it(`does not block the extension host for more than ${MAX_BLOCK_MS} ms while indexing ${FILES} files`, async function () {
    this.timeout(180000);
    assert.ok(threadCpuUsage, `process.threadCpuUsage is missing in Node ${process.versions.node}`);
    const a = await api();
    await ready(a);
    const filesBefore = a.services.engine.states()[0]!.status!.files;
    // Generate while paused so the job starts when the measurement does.
    a.services.engine.pause();
    fs.mkdirSync(dir(), { recursive: true });
    let bytes = 0;
    for (let i = 0; i < FILES; i++) {
      const text = pythonModule(i);
      bytes += text.length;
      fs.writeFileSync(path.join(dir(), `shapes_${String(i).padStart(4, '0')}.py`), text);
    }
    // Let the file watcher deliver its events for the generated files before measuring.
    await new Promise((r) => setTimeout(r, 2000));

    const prof = await startProfiler();
    let maxDrift = 0;
    let maxBusy = 0;
    const stalls: Stall[] = [];
    let lastTick = performance.now();
    let lastTickUs = nowUs();
    let lastCpu = threadCpuUsage!();
    const ticker = setInterval(() => {
      const now = performance.now();
      const busy = Math.min(now - lastTick, cpuMs(lastCpu));
      maxDrift = Math.max(maxDrift, now - lastTick - 10);
      maxBusy = Math.max(maxBusy, busy);
      const us = nowUs();
      if (busy > MAX_BLOCK_MS) stalls.push({ startUs: lastTickUs, endUs: us, busyMs: busy });
      lastTick = now;
      lastTickUs = us;
      lastCpu = threadCpuUsage!();
    }, 10);
    let maxCallWall = 0;
    let maxCallCpu = 0;
    let calls = 0;
    let sawIndexing = false;
    let profile: CpuProfile | undefined;
    const stateSub = a.services.engine.onDidChangeState(() => {
      if (a.services.engine.states().some((s) => s.kind === 'indexing')) sawIndexing = true;
    });
    const started = performance.now();
    try {
      a.services.engine.resume();
      // The watcher queued the new paths; the folder itself is asked for too (coalesced).
      const indexed = a.services.engine.refresh(undefined, ['generated']);
      let done = false;
      void indexed.finally(() => (done = true));
      while (!done) {
        const t = performance.now();
        const c = threadCpuUsage!();
        await vscode.commands.executeCommand('cairn.openSpan'); // no argument: returns at once
        maxCallWall = Math.max(maxCallWall, performance.now() - t);
        maxCallCpu = Math.max(maxCallCpu, cpuMs(c));
        calls++;
        await new Promise((r) => setTimeout(r, 5));
      }
      await indexed;
      await a.client.whenIdle();
    } finally {
      clearInterval(ticker);
      stateSub.dispose();
      profile = await prof.stop();
    }
    const took = performance.now() - started;
    const filesAfter = a.services.engine.states()[0]!.status!.files;
    console.log(
      `[vscode-test] indexed ${FILES} files (${(bytes / 1024 / 1024).toFixed(1)} MB) in ${Math.round(took)} ms; ` +
        `longest busy stretch of the extension host thread ${maxBusy.toFixed(1)} ms (wall-clock timer drift ${maxDrift.toFixed(1)} ms); ` +
        `${calls} command calls, slowest ${maxCallWall.toFixed(1)} ms wall / ${maxCallCpu.toFixed(1)} ms CPU`,
    );
    assert.ok(sawIndexing, 'the job was never seen indexing');
    assert.equal(filesAfter, filesBefore + FILES, 'not every generated file was indexed');
    assert.ok(calls >= 10, `only ${calls} command calls during the job`);
    const cairnDir = path.join(vscode.extensions.getExtension('cairn-dev.cairn')!.extensionPath, 'dist');
    for (const stall of stalls) {
      const who = attribute(profile!, stall, cairnDir);
      const what = `the extension host thread was busy for ${stall.busyMs.toFixed(1)} ms without a break (${who.samples} samples, ${Math.round(who.cairnShare * 100)} % in Cairn; top: ${who.top.join(', ')})`;
      console.log(`[vscode-test] ${what}`);
      assert.ok(who.samples > 0 && who.cairnShare < 0.5, what);
    }
    assert.ok(maxCallCpu <= MAX_BLOCK_MS, `a command call kept the thread busy for ${maxCallCpu.toFixed(1)} ms`);
    const hit = await poll('a generated symbol', async () => (await a.services.engine.findSymbol('build_shapes_1234')).results[0], 5000);
    assert.equal(hit.path, 'generated/shapes_1234.py');
    // Thousands are written with the locale's separator: "Cairn 2,007 files".
    if (uiAvailable()) await waitForText(`Cairn ${formatNumber(filesAfter, 0, 'en')} files`);
  });

  it('a rebuild of the bigger index shows a notification with progress; cancelling it pauses indexing', async function () {
    if (!uiAvailable()) this.skip();
    this.timeout(120000);
    const a = await api();
    await ready(a);
    const generation = a.client.host.generation;
    void vscode.commands.executeCommand('cairn.rebuildIndex', { skipConfirmation: true });
    // This host (smoke-test driver mode) files notifications in the notification centre without a toast.
    await poll('the rebuild to start', () => a.services.engine.states().some((s) => s.kind === 'indexing' && s.fromScratch), 10000);
    await vscode.commands.executeCommand('notifications.showList');
    await waitForText('Cairn: indexing workspace');
    await screenshot('notification-indexing', { clip: '.notifications-center' });
    await click({ text: 'Cancel', exact: true });
    await poll('indexing to be paused', () => a.services.engine.paused, 5000);
    assert.ok(a.services.engine.states().every((s) => s.kind === 'paused'));
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(a.client.host.generation, generation, 'the engine thread died when the rebuild was cancelled');
    a.services.engine.resume();
    await ready(a, 120000);
    assert.ok((await a.services.engine.findSymbol('build_shapes_42')).exact, 'the rebuild did not finish after resuming');
    await vscode.commands.executeCommand('notifications.hideList');
  });
});
