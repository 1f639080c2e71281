// Incremental refresh: the one operation behind "index the workspace", "a file was saved",
// "a branch switch touched thousands of files" and "the ignore rules changed".
//
//   1. load the previous generation, or start from nothing          (refreshLoad.ts)
//   2. list eligible files (all, or only the given paths); unchanged stat (size, mtime, ctime,
//      inode, device; not recorded racily) -> skipped without reading (refreshPlan.ts)
//   3. the rest are read and hashed: same hash -> only the stat is updated; different ->
//      re-chunked into new segment(s), pipelined by batch, committed in parts on a long
//      incremental refresh                                          (refreshBuild.ts)
//   4. chunks of changed, deleted and newly ignored files are tombstoned; small or
//      tombstone-heavy segments are merged (refreshMerge.ts); the state table and manifest are
//      committed atomically                                         (refreshCommit.ts)
import type { RefreshReport } from '../api';
import type { Diagnostic, SkippedFile } from '../types';
import { optimizeWasmForJob } from '../chunking/wasmTiers';
import { acquireLock } from '../store/lock';
import { readTimings, startTimings, timingsOn, timingsSince } from '../timings';
import { ProgressMeter } from './progressMeter';
import { readAndBuild } from './refreshBuild';
import { type CommitTarget, commitRefresh } from './refreshCommit';
import { configHash, type IndexerConfig } from './refreshConfig';
import { loadGeneration } from './refreshLoad';
import { planRefresh } from './refreshPlan';
import { type IndexerRunOptions, RefreshHandedOff } from './refreshHandOff';

export { configHash, type Chunker, type IndexerConfig } from './refreshConfig';
export type { IndexerRunOptions } from './refreshHandOff';

/**
 * Brings the index of `config.root` in `config.store` up to date, under the store's lock: load
 * the generation to build on, plan from what changed, build new segments, commit. Gives what it did.
 */
export async function refreshIndex(config: IndexerConfig, options: IndexerRunOptions = {}): Promise<RefreshReport> {
  const started = Date.now();
  startTimings();
  const timingsBefore = readTimings();
  const { store } = config;
  const diagnostics: Diagnostic[] = [];
  const progress = options.onProgress ?? (() => {});
  // Before the lock file: a folder that is not this root's store gets nothing written into it.
  store.claim(true);
  const lock = await acquireLock(store.dir, {
    timeoutMs: config.lockTimeoutMs,
    signal: options.signal,
    wait: options.waitForWriter,
    onWait: (holder) => progress({ phase: 'wait', done: 0, total: 0, message: `waiting for the index lock held by ${holder}` }),
  });
  try {
    const target: CommitTarget = { store, root: config.root, configHash: configHash(config.policy, config.strategy) };
    const generation = loadGeneration(store, target.configHash, options.rebuild, diagnostics);
    const meter = new ProgressMeter(progress);
    const plan = await planRefresh(config, options, generation.state, generation.rechunkAll, meter);
    // Racy entries are re-read and hashed here: their files most likely hold what was read before.
    if (options.handOffAbove !== undefined && !plan.only && plan.toRead.length - plan.racy + plan.removed.size > options.handOffAbove) {
      const paths = [...plan.toRead.map((f) => f.path), ...plan.removed].sort();
      options.onPending?.(paths);
      throw new RefreshHandedOff(paths.length);
    }
    // Before the chunk workers load their grammars: a big job parses faster optimized.
    optimizeWasmForJob(plan.bytesToRead);
    const built = await readAndBuild(config, options, target, generation, plan, meter, diagnostics);
    const { manifest, summary, skipped } = commitRefresh(
      target,
      { ...built, generation, only: plan.only, rechunkAll: generation.rechunkAll, filesScanned: plan.filesScanned, startedAtMs: started },
      meter,
    );
    return {
      ...summary,
      durationMs: Date.now() - started,
      generation: manifest.generation,
      files: manifest.files,
      chunks: manifest.chunks,
      skipped,
      skippedByReason: countByReason(skipped),
      diagnostics,
      rebuilt: generation.rebuilt,
      ...(timingsOn() ? { timings: timingsSince(timingsBefore) } : {}),
      ...(built.left ? { pending: built.left.sort() } : {}),
    };
  } finally {
    // Segments of a refresh that failed before its commit are nobody's: removed now, not at the next GC.
    store.discardUncommitted();
    lock.release();
  }
}

function countByReason(skipped: readonly SkippedFile[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of skipped) out[s.reason] = (out[s.reason] ?? 0) + 1;
  return out;
}
