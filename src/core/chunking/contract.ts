import type { FileChunks, SourceDocument } from '../types';
import type { ChunkingPolicy } from './policy';

/**
 * What the chunk dispatcher needs from the tree-sitter chunker (src/core/chunking/ast/).
 * Kept as an interface so the dispatcher, the worker and tests do not depend on wasm loading.
 */
export interface AstChunkerLike {
  /** True when a grammar exists for this language id (see ast/grammars.json). */
  supports(language: string): boolean;
  /**
   * Chunks one document at definition boundaries. Resolves to `null` when the parse yields
   * nothing usable (the caller then falls back to line chunks). Never rejects for bad input:
   * broken syntax yields chunks for what parses, plus diagnostics. `onProgress` hears the
   * share of the file's work done (0-1) as parsing and each later stage go by.
   */
  chunk(doc: SourceDocument, policy: ChunkingPolicy, onProgress?: (fraction: number) => void): Promise<FileChunks | null>;
  /**
   * Loads, one after another, the grammars that documents of these languages may be parsed
   * with, so a job loads all it needs before it parses anything (see `AstChunker.prepare` for
   * why). Never rejects: a grammar that cannot be loaded is no longer offered, as in `chunk`.
   */
  prepare(languages: readonly string[]): Promise<void>;
  /** Frees wasm memory (parsers, trees). */
  dispose(): void;
}
