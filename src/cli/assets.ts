// Where the CLI's run-time files live, relative to the running script. The only module that
// knows the layout: the engine is always handed these paths.
//
//   bundle (dist/cli.js):        dist/chunkWorker.js, grammars/
//   tsc output (out/src/cli/):   out/src/core/chunking/worker.js, grammars/ at the repo root
import { existsSync } from 'node:fs';
import * as path from 'node:path';

export interface CliAssets {
  /** Directory holding tree-sitter.wasm and the language grammars. */
  grammarsDir: string;
  /** Entry script of a chunk worker thread. */
  chunkWorker: string;
}

export function locateAssets(scriptDir: string = __dirname): CliAssets {
  const bundledWorker = path.join(scriptDir, 'chunkWorker.js');
  if (existsSync(bundledWorker)) {
    return { grammarsDir: path.resolve(scriptDir, '..', 'grammars'), chunkWorker: bundledWorker };
  }
  return {
    grammarsDir: path.resolve(scriptDir, '..', '..', '..', 'grammars'),
    chunkWorker: path.resolve(scriptDir, '..', 'core', 'chunking', 'worker.js'),
  };
}
