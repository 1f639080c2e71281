// Where the CLI's run-time files live, relative to the running script. The only module that
// knows the layout: the engine is always handed these paths.
//
//   bundle (dist/cli.js):        dist/chunkWorker.js, dist/indexWorker.js, grammars/
//   tsc output (out/src/cli/):   out/src/core/chunking/worker.js, out/src/core/engine/indexWorker.js,
//                                grammars/ at the repo root
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import * as path from 'node:path';

export interface CliAssets {
  /** Directory holding tree-sitter.wasm and the language grammars. */
  grammarsDir: string;
  /** Entry script of a chunk worker thread. */
  chunkWorker: string;
  /** Entry script of the thread that builds an index from nothing. */
  indexWorker: string;
  /** The ripgrep binary of @vscode/ripgrep's package for this platform, when installed. */
  ripgrep?: string;
}

/** `@vscode/ripgrep-<platform>-<arch>/bin/rg`, resolved like node resolves a dependency. */
export function locateRipgrep(): string | undefined {
  const binary = process.platform === 'win32' ? 'rg.exe' : 'rg';
  try {
    return require.resolve(`@vscode/ripgrep-${process.platform}-${process.arch}/bin/${binary}`);
  } catch {
    return undefined;
  }
}

export function locateAssets(scriptDir: string = __dirname): CliAssets {
  const bundledWorker = path.join(scriptDir, 'chunkWorker.js');
  if (existsSync(bundledWorker)) {
    return { grammarsDir: path.resolve(scriptDir, '..', 'grammars'), chunkWorker: bundledWorker, indexWorker: path.join(scriptDir, 'indexWorker.js'), ripgrep: locateRipgrep() };
  }
  return {
    grammarsDir: path.resolve(scriptDir, '..', '..', '..', 'grammars'),
    chunkWorker: path.resolve(scriptDir, '..', 'core', 'chunking', 'worker.js'),
    indexWorker: path.resolve(scriptDir, '..', 'core', 'engine', 'indexWorker.js'),
    ripgrep: locateRipgrep(),
  };
}

/** The script the `cairn` bin runs: dist/cli.js beside the bundle, or the launcher tsc compiled. */
export function locateCliScript(scriptDir: string = __dirname): string {
  const bundled = path.join(scriptDir, 'cli.js');
  return existsSync(path.join(scriptDir, 'chunkWorker.js')) ? bundled : path.resolve(scriptDir, 'launch.js');
}

/** The first `name` on PATH that is an executable file (the way a shell finds a command). */
export function findOnPath(name: string, envPath: string = process.env.PATH ?? ''): string | undefined {
  const suffixes = process.platform === 'win32' ? ['.exe', '.cmd', ''] : [''];
  for (const dir of envPath.split(path.delimiter)) {
    if (!dir) continue;
    for (const suffix of suffixes) {
      const candidate = path.join(dir, name + suffix);
      try {
        accessSync(candidate, constants.X_OK);
        if (statSync(candidate).isFile()) return candidate;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}
