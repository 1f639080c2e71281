// Which of V8's two wasm compilers parses. A tree-sitter grammar is a large wasm module; V8
// runs it first on its baseline compiler and recompiles its hot functions with the optimizing
// one in the background. A process cannot exit before those compiles finish, and they cost
// seconds of CPU and tens of MB per grammar, so a short run that parses (a save, a small tree)
// is faster on the baseline compiler alone: the CLI launcher starts such runs with it. A job
// that parses many MB runs its grammars about a third faster optimized, far more than the
// compiles cost, so such a job lifts the restriction for the rest of the process.
//
// V8's flags are the process's, shared by every thread, and a module compiled under one setting
// keeps it while any thread holds it: the lift must come before the job's threads load their
// grammars. An environment variable (every thread and child process reads a copy) says that this
// process chose the baseline compiler, so a process that did not (the extension host, the
// bench, tests) is never changed. A server keeps the baseline compiler: its parsers are warmed
// in its main thread, and its refresh threads share those modules, so a lift would gain nothing.
// `docs/index-design.md` holds the measurements.

/** Set to `1` in a process the CLI started on the baseline wasm compiler alone. */
export const BASELINE_WASM_ENV = 'CAIRN_BASELINE_WASM';

/** Bytes a job parses above which the optimizing compiler pays for its compiles. */
export const OPTIMIZE_WASM_ABOVE_BYTES = 16 * 1024 * 1024;

/** V8 flags of the baseline compiler alone, and of both tiers (V8's defaults). */
const BASELINE_FLAGS = ['--liftoff-only'] as const;
const BOTH_TIERS_FLAGS = ['--no-liftoff-only', '--wasm-tier-up', '--wasm-dynamic-tiering'] as const;

/** node:v8, loaded only by the runs that set flags (loading it costs a fresh process a few ms). */
function setFlags(flags: readonly string[]): void {
  const v8 = require('node:v8') as typeof import('node:v8');
  for (const flag of flags) v8.setFlagsFromString(flag);
}

/**
 * Runs this process's wasm on the baseline compiler only; call before any wasm compiles.
 * `liftable`: a big job may lift it later (optimizeWasmForJob); otherwise it holds for good.
 */
export function useBaselineWasmCompiler(liftable: boolean, env: NodeJS.ProcessEnv = process.env): void {
  setFlags(BASELINE_FLAGS);
  if (liftable) env[BASELINE_WASM_ENV] = '1';
  else delete env[BASELINE_WASM_ENV];
}

/**
 * Lets V8 optimize wasm for a job that parses `bytes`, when this process was started on the
 * baseline compiler and the job is big enough to gain; true when it did. Call before the job's
 * threads load grammars.
 */
export function optimizeWasmForJob(bytes: number, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env[BASELINE_WASM_ENV] !== '1' || bytes < OPTIMIZE_WASM_ABOVE_BYTES) return false;
  setFlags(BOTH_TIERS_FLAGS);
  env[BASELINE_WASM_ENV] = '0';
  return true;
}
