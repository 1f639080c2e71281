#!/usr/bin/env node
// `cairn`'s entry point (dist/cli.js). It runs the CLI bundle (dist/cliMain.js) with V8's code
// cache: a command's first run leaves the bytecode of every function it ran in the user's
// cache directory, and later runs of that command load it instead of compiling the bundle
// again (compiling was a tenth of a fresh `cairn search`; see docs/bench-results.md).
// Each command has its own cache, made after a run that succeeded, so it holds what that
// command runs. V8 checks a cache against the source and its own version and flags and
// rejects a stale one; the next successful run replaces it. CAIRN_CODE_CACHE=off disables it.
//
// Before any of that, search/symbol/refs/pack/status ask the root's `cairn serve` process
// (src/server/client.ts), which answers from a warm, watched index without this process
// loading the engine. Without one, the command runs here and a server is started for next time.
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { writeFileAtomic } from '../core/store/atomic';
import { userCacheDir } from '../command/cacheDir';
import { useBaselineWasmCompiler } from '../core/chunking/wasmTiers';
import { askServer, startServer } from '../server/client';

const MAIN = path.join(__dirname, 'cliMain.js');

/**
 * Commands that may parse (any that may refresh the index). They run with V8's baseline wasm
 * compiler (core/chunking/wasmTiers.ts); set here, before the bundle is compiled, so the flags a
 * command's code cache is made under are the flags it is read under (V8 rejects a cache made
 * under others). A big index job may lift it; a server keeps it.
 */
const MAY_PARSE = new Set(['index', 'search', 'symbol', 'refs', 'pack', 'export', 'chunks', 'eval', 'mcp', 'serve']);

/** Sets the baseline wasm compiler for a command that may parse; gives V8's flags tag after it. */
function baselineWasmTag(command: string): number {
  useBaselineWasmCompiler(command !== 'serve');
  return v8Tag();
}

/** V8's tag for code caches: its version and flags (node:v8 is loaded by then). */
function v8Tag(): number {
  return (require('node:v8') as typeof import('node:v8')).cachedDataVersionTag();
}

type ModuleFunction = (exports: object, require: NodeJS.Require, module: { exports: object }, filename: string, dirname: string) => void;

/** The cache file for this command, bundle and Node; undefined when caching is off. */
function cacheFileFor(bundle: fs.Stats): string | undefined {
  if (process.env.CAIRN_CODE_CACHE === 'off') return undefined;
  const command = process.argv[2] ?? '';
  const name = /^[a-z][a-z-]{0,31}$/.test(command) ? command : 'other';
  return path.join(userCacheDir(), 'cairn', 'code-cache', `${name}.${process.version}-${process.arch}-${bundle.size}-${Math.trunc(bundle.mtimeMs)}.bin`);
}

function readCache(file: string | undefined): Buffer | undefined {
  if (!file) return undefined;
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Writes the cache atomically and drops this command's older ones. Never fails the command. */
function saveCache(script: vm.Script, file: string): void {
  try {
    const dir = path.dirname(file);
    fs.mkdirSync(dir, { recursive: true });
    writeFileAtomic(file, script.createCachedData());
    // Command names have no dots: everything up to the first one names the command (a writer's
    // temporary file starts with a dot, so it is never taken for an old cache).
    const name = path.basename(file);
    const prefix = name.slice(0, name.indexOf('.') + 1);
    for (const old of fs.readdirSync(dir)) {
      if (old.startsWith(prefix) && old !== name) fs.rmSync(path.join(dir, old), { force: true });
    }
  } catch {
    // A read-only or full cache directory only costs the next run its compile time.
  }
}

function launch(): void {
  let source: string;
  let bundle: fs.Stats;
  try {
    bundle = fs.statSync(MAIN);
    source = fs.readFileSync(MAIN, 'utf8');
  } catch (e) {
    process.stderr.write(`cairn: cannot read the CLI bundle ${MAIN} (${(e as Error).message}); rebuild it with \`node esbuild.mjs\`\n`);
    process.exitCode = 1;
    return;
  }
  const command = process.argv[2] ?? '';
  const flagsTag = MAY_PARSE.has(command) ? baselineWasmTag(command) : undefined;
  const cacheFile = cacheFileFor(bundle);
  const cachedData = readCache(cacheFile);
  // The wrapper node itself puts around a CommonJS module.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n})`, { filename: MAIN, cachedData });
  if (cacheFile && (cachedData === undefined || script.cachedDataRejected === true)) {
    process.once('exit', (code) => {
      // A job that lifted the wasm compiler changed V8's flags: a cache made now would be
      // rejected by the next run, which starts under the launch flags again.
      if (code === 0 && (flagsTag === undefined || flagsTag === v8Tag())) saveCache(script, cacheFile);
    });
  }
  const run = script.runInThisContext() as ModuleFunction;
  const module = { exports: {} };
  run.call(module.exports, module.exports, createRequire(MAIN), module, MAIN, path.dirname(MAIN));
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const outcome = await askServer({ argv, cwd: process.cwd(), env: process.env, stdout: process.stdout, stderr: process.stderr, uid: process.getuid?.() });
  const debug = process.env.CAIRN_DEBUG ? (line: string): void => void process.stderr.write(`cairn: ${line}\n`) : undefined;
  if (outcome.kind === 'answered') {
    debug?.(`answered by the server (pid ${outcome.pid})`);
    process.exitCode = outcome.exitCode;
    return;
  }
  debug?.(`answering in this process: ${outcome.reason}`);
  const start = outcome.start;
  if (start) {
    // After this run, which builds or refreshes the index a server starts from.
    process.once('exit', (code) => {
      if (code === 0 && startServer(start, __filename, process.env)) debug?.(`started a server for ${start.root}`);
    });
  }
  launch();
}

void main();
