// Long builds written as generators. A segment's build takes seconds on a large tree; written as
// steps, the index thread can give chunk results, the chunk workers' next batches and queries a
// turn between them instead of holding its event loop the whole time. A caller with nothing
// else to do drains the steps at once.
import { setImmediate as turn } from 'node:timers/promises';

/**
 * A build's steps: each yield is a point where the caller may pause, with how far the build is
 * (0-1) or undefined when that is unchanged. Its return value is what was built.
 */
export type BuildSteps<T> = Generator<number | undefined, T, void>;

/** Runs every step now; `onStep` hears each fraction. */
export function drainSteps<T>(steps: BuildSteps<T>, onStep?: (fraction: number) => void): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    if (r.value !== undefined) onStep?.(r.value);
  }
}

/**
 * Runs the steps, giving the event loop a turn whenever `sliceMs` have passed without one; stops
 * with `signal`'s reason at the first turn after it is aborted.
 */
export async function drainStepsYielding<T>(steps: BuildSteps<T>, sliceMs: number, onStep?: (fraction: number) => void, signal?: AbortSignal): Promise<T> {
  let sliceStart = performance.now();
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    if (r.value !== undefined) onStep?.(r.value);
    if (performance.now() - sliceStart >= sliceMs) {
      await turn();
      signal?.throwIfAborted();
      sliceStart = performance.now();
    }
  }
}
