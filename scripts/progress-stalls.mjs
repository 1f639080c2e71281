#!/usr/bin/env node
// Builds an index of a tree from nothing with the tsc-compiled engine (out/), recording every
// progress event with its time and the percentage the VS Code views show for it, and prints the
// longest time the percentage stayed at one value (the goal: no stall over 2 s on an idle machine).
//
//   npx tsc -p . --outDir out && node scripts/progress-stalls.mjs TREE [--workers N] [--events]
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { values, positionals } = parseArgs({ allowPositionals: true, options: { workers: { type: 'string' }, events: { type: 'boolean' } } });
const root = positionals[0];
if (!root || !fs.statSync(root, { throwIfNoEntry: false })?.isDirectory()) {
  console.error('usage: node scripts/progress-stalls.mjs TREE [--workers N] [--events]');
  process.exit(2);
}
const { Engine } = require(path.join(repo, 'out/src/core/engine/engine.js'));
const { progressPercent } = require(path.join(repo, 'out/src/vscode/format.js'));
const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-progress-'));
// As the extension opens it: one core left for the editor.
const workers = values.workers ? Number(values.workers) : Math.max(1, os.availableParallelism() - 1);
const engine = new Engine({
  root: path.resolve(root),
  storeDir,
  grammarsDir: path.join(repo, 'grammars'),
  workerScript: path.join(repo, 'out/src/core/chunking/worker.js'),
  indexWorkerScript: path.join(repo, 'out/src/core/engine/indexWorker.js'),
  workers,
});
const t0 = Date.now();
const events = [];
try {
  const report = await engine.refresh({ onProgress: (p) => events.push({ t: Date.now() - t0, percent: progressPercent(p) ?? 0, p }) });
  events.push({ t: Date.now() - t0, percent: 100, p: { phase: 'done' } });
  let worst = { ms: 0, percent: 0, fromMs: 0 };
  let since = 0;
  let percent = 0;
  let backwards = 0;
  for (const e of events) {
    if (e.percent === percent) continue;
    if (e.t - since > worst.ms) worst = { ms: e.t - since, percent, fromMs: since };
    if (e.percent < percent) backwards++;
    percent = e.percent;
    since = e.t;
  }
  if (values.events) for (const e of events) console.log(`${e.t} ms\t${e.percent}%\t${JSON.stringify(e.p)}`);
  console.log(JSON.stringify({ files: report.files, workers, totalMs: Date.now() - t0, events: events.length, longestStallMs: worst.ms, stallAtPercent: worst.percent, stallFromMs: worst.fromMs, backwards }));
} finally {
  await engine.close();
  fs.rmSync(storeDir, { recursive: true, force: true });
}
