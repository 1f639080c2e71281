// The one place that loads the tree-sitter chunker (src/core/chunking/ast/), shared by the
// worker threads and the in-process pool. Imported on demand so `--strategy lines` never
// loads web-tree-sitter or any wasm.
import type { AstChunkerLike } from './contract';

/** Creates an AST chunker reading grammars from `grammarsDir`; rejects when it cannot be loaded. */
export async function createAstChunker(grammarsDir: string): Promise<AstChunkerLike> {
  const { AstChunker } = await import('./ast');
  try {
    return await AstChunker.create({ grammarsDir });
  } catch (e) {
    throw new Error(`the tree-sitter chunker could not start (${e instanceof Error ? e.message : String(e)})`);
  }
}
