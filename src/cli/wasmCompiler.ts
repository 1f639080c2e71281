// Tree-sitter grammars are large wasm modules whose hot lexer functions V8 recompiles with
// TurboFan in the background; a process cannot exit until those compiles finish, which added
// seconds to every short AST run. The
// baseline compiler alone showed no loss of chunking throughput, so a CLI run uses only it.
// V8 flags are process-wide (workers inherit them) and must be set before any wasm compiles.
// The launcher sets it for the commands that may parse (loading node:v8 costs a few ms).
let chosen = false;

export function useBaselineWasmCompiler(): void {
  if (chosen) return;
  chosen = true;
  (require('node:v8') as typeof import('node:v8')).setFlagsFromString('--liftoff-only');
}
