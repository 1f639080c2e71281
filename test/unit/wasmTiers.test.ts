// A CLI run starts on V8's baseline wasm compiler, so a short run does not wait for background
// optimizing compiles of its grammars; a job that parses many MB lifts that before its threads
// load grammars, since it parses far faster optimized. V8's flags are the process's, so each case
// runs in a fresh process and reads V8's flags tag (what code caches are checked against).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { OPTIMIZE_WASM_ABOVE_BYTES } from '../../src/core/chunking/wasmTiers';

const TIERS = path.resolve(__dirname, '..', '..', 'src', 'core', 'chunking', 'wasmTiers.js');

interface Outcome {
  /** What each optimizeWasmForJob call returned. */
  lifted: boolean[];
  /** V8's flags tag at the end. */
  tag: number;
  /** What a worker thread started at the end finds in the environment, and its own call's answer. */
  worker: { marker: string | null; lifted: boolean };
}

/** Runs `start`, then a job of each size in `jobs`, in a fresh process. */
function run(start: 'baseline' | 'baseline-for-good' | 'none', jobs: number[]): Outcome {
  const script = `
    const tiers = require(${JSON.stringify(TIERS)});
    const { Worker } = require('node:worker_threads');
    delete process.env[tiers.BASELINE_WASM_ENV];
    if (${JSON.stringify(start)} !== 'none') tiers.useBaselineWasmCompiler(${JSON.stringify(start)} === 'baseline');
    const lifted = ${JSON.stringify(jobs)}.map((bytes) => tiers.optimizeWasmForJob(bytes));
    const tag = require('node:v8').cachedDataVersionTag();
    const w = new Worker(\`
      const tiers = require(${JSON.stringify(TIERS)});
      const marker = process.env[tiers.BASELINE_WASM_ENV] ?? null;
      require('node:worker_threads').parentPort.postMessage({ marker, lifted: tiers.optimizeWasmForJob(1e12) });
    \`, { eval: true });
    w.once('message', (worker) => console.log(JSON.stringify({ lifted, tag, worker })));
  `;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Outcome;
}

/** V8's flags tag of a fresh process started with `flags`. */
function tagOf(flags: string[]): number {
  const r = spawnSync(process.execPath, [...flags, '-p', "require('node:v8').cachedDataVersionTag()"], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 0, r.stderr);
  return Number(r.stdout.trim());
}

describe('wasm compiler tiers: a big job lifts the baseline compiler a CLI run starts on', function () {
  this.timeout(120_000);
  const big = OPTIMIZE_WASM_ABOVE_BYTES;
  const small = OPTIMIZE_WASM_ABOVE_BYTES / 16;
  let defaults: number;
  let baseline: number;

  before(() => {
    defaults = tagOf([]);
    baseline = tagOf(['--liftoff-only']);
    assert.notEqual(defaults, baseline, 'the baseline flag changes V8 flags tag');
  });

  const cases: Array<{ name: string; start: 'baseline' | 'baseline-for-good' | 'none'; jobs: number[]; lifted: boolean[]; flags: 'defaults' | 'baseline'; worker: { marker: string | null; lifted: boolean } }> = [
    { name: 'a big job lifts it, once', start: 'baseline', jobs: [big, big * 4], lifted: [true, false], flags: 'defaults', worker: { marker: '0', lifted: false } },
    { name: 'small jobs keep it', start: 'baseline', jobs: [small, small, big - 1], lifted: [false, false, false], flags: 'baseline', worker: { marker: '1', lifted: true } },
    { name: 'a small job, then a big one', start: 'baseline', jobs: [small, big], lifted: [false, true], flags: 'defaults', worker: { marker: '0', lifted: false } },
    { name: 'a server keeps it for good', start: 'baseline-for-good', jobs: [big * 4], lifted: [false], flags: 'baseline', worker: { marker: null, lifted: false } },
    { name: 'a process the CLI did not start is never changed', start: 'none', jobs: [big * 4], lifted: [false], flags: 'defaults', worker: { marker: null, lifted: false } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const out = run(c.start, c.jobs);
      assert.deepEqual(out.lifted, c.lifted);
      assert.equal(out.tag, c.flags === 'defaults' ? defaults : baseline, `flags after the jobs: ${c.flags}`);
      assert.deepEqual(out.worker, c.worker);
    });
  }
});
