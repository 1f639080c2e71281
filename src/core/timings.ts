// Per-stage time of an index build (`cairn index --timings`, or CAIRN_TIMINGS=1): where a cold
// index spends its time, summed over every thread that does the work (the index thread and the
// chunk workers). Off by default, and then each hook is one boolean test.
//
// Threads share one buffer: each claims a row and adds to its own cells only, so no cell is
// written by two threads; a reader sums the rows. Time inside `timed` is exclusive: a nested
// stage's time is taken out of the stage around it, so the stages add up to the work done.

import { STAGES, type Stage, type StageTimes } from './timingStages';

export { STAGES, type Stage, type StageTimes };

/** The environment variable that turns timings on for `cairn` and every thread it starts. */
export const TIMINGS_ENV = 'CAIRN_TIMINGS';

const MAX_ROWS = 256;
const HEADER_BYTES = 8;
const INDEX: ReadonlyMap<string, number> = new Map(STAGES.map((s, i) => [s, i]));

let shared: SharedArrayBuffer | undefined;
let row: Float64Array | undefined;
/** Open `timed` sections of this thread: the stage and when its time was last taken. */
const open: Array<{ cell: number; since: number }> = [];

/** True when this thread records stage times. */
export function timingsOn(): boolean {
  return row !== undefined;
}

/**
 * Starts recording in this thread when CAIRN_TIMINGS=1 (or `force`), with a new shared buffer
 * unless one was adopted already; returns the buffer to hand to threads started from here.
 */
export function startTimings(force = false): SharedArrayBuffer | undefined {
  if (shared) return shared;
  if (!force && process.env[TIMINGS_ENV] !== '1') return undefined;
  const buffer = new SharedArrayBuffer(HEADER_BYTES + MAX_ROWS * STAGES.length * 8);
  adoptTimings(buffer);
  return buffer;
}

/** Records this thread's stage times into `buffer` (given by the thread that started this one). */
export function adoptTimings(buffer: SharedArrayBuffer | undefined): void {
  if (!buffer || shared) return;
  const claimed = Atomics.add(new Int32Array(buffer, 0, 1), 0, 1);
  shared = buffer;
  // More threads than rows (never in practice): the extra ones record nothing.
  if (claimed < MAX_ROWS) row = new Float64Array(buffer, HEADER_BYTES + claimed * STAGES.length * 8, STAGES.length);
}

/** The buffer this thread records into, to pass to the threads it starts. */
export function timingsBuffer(): SharedArrayBuffer | undefined {
  return shared;
}

/** Opens a section of `stage` in this thread: the time so far goes to the section around it. */
function enter(cells: Float64Array, stage: Stage): { cell: number; since: number } {
  const now = performance.now();
  const outer = open[open.length - 1];
  if (outer) {
    cells[outer.cell] = (cells[outer.cell] as number) + now - outer.since;
    outer.since = now;
  }
  const mine = { cell: INDEX.get(stage) as number, since: now };
  open.push(mine);
  return mine;
}

/** Closes the innermost section; the one around it counts again from now. */
function leave(cells: Float64Array, mine: { cell: number; since: number }): void {
  const end = performance.now();
  cells[mine.cell] = (cells[mine.cell] as number) + end - mine.since;
  open.pop();
  const outer = open[open.length - 1];
  if (outer) outer.since = end;
}

/** Runs `fn` and adds its time, less that of stages timed inside it, to `stage`. */
export function timed<T>(stage: Stage, fn: () => T): T {
  if (!row) return fn();
  const cells = row;
  const mine = enter(cells, stage);
  try {
    return fn();
  } finally {
    leave(cells, mine);
  }
}

/** `timed` for an async `fn` that nothing else in this thread runs beside (a chunk worker's file). */
export async function timedAsync<T>(stage: Stage, fn: () => Promise<T>): Promise<T> {
  if (!row) return fn();
  const cells = row;
  const mine = enter(cells, stage);
  try {
    return await fn();
  } finally {
    leave(cells, mine);
  }
}

/** Adds wall time measured by the caller (an awaited stage that overlaps other work). */
export function addTime(stage: Stage, ms: number): void {
  if (!row) return;
  const cell = INDEX.get(stage) as number;
  row[cell] = (row[cell] as number) + ms;
}

/** The stage times recorded so far by every thread sharing this thread's buffer. */
export function readTimings(): StageTimes {
  const out: StageTimes = {};
  if (!shared) return out;
  const rows = Math.min(MAX_ROWS, Atomics.load(new Int32Array(shared, 0, 1), 0));
  const all = new Float64Array(shared, HEADER_BYTES, rows * STAGES.length);
  STAGES.forEach((stage, i) => {
    let sum = 0;
    for (let r = 0; r < rows; r++) sum += all[r * STAGES.length + i] as number;
    if (sum > 0) out[stage] = sum;
  });
  return out;
}

/** `after - before`, stage by stage: one build's share of a buffer that outlives it. */
export function timingsSince(before: StageTimes, after: StageTimes = readTimings()): StageTimes {
  const out: StageTimes = {};
  for (const stage of STAGES) {
    const ms = (after[stage] ?? 0) - (before[stage] ?? 0);
    if (ms > 0) out[stage] = Math.round(ms);
  }
  return out;
}
