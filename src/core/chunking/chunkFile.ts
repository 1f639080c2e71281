// Chooses the chunker for one document: the AST chunker for languages with a grammar (when
// the strategy asks for it), the structural line chunkers for prose and YAML, plain line
// packing otherwise. A failed or empty parse falls back to line chunks for that file only.
// A minified file gets neither: it is cut into bounded character pieces (lines/minified.ts).
import type { Diagnostic, FileChunks, SourceDocument, ChunkStrategy } from '../types';
import type { AstChunkerLike } from './contract';
import { chunkByLines, lineStrategyFor } from './lines';
import { looksMinified } from './lines/minified';
import type { ChunkingPolicy } from './policy';

export interface ChunkContext {
  policy: ChunkingPolicy;
  strategy: ChunkStrategy;
  /** Absent when the strategy is `lines` or tree-sitter could not be loaded. */
  ast?: AstChunkerLike;
}

/**
 * Chunks one document. Never rejects: problems come back as diagnostics. `onProgress` hears
 * the share of a parsed file's work done, for a progress report while a big file is chunked.
 */
export async function chunkDocument(doc: SourceDocument, ctx: ChunkContext, onProgress?: (fraction: number) => void): Promise<FileChunks> {
  try {
    return await dispatch(doc, ctx, onProgress);
  } catch (e) {
    const path = typeof doc?.path === 'string' ? doc.path : '';
    return { path, chunks: [], strategy: 'lines', diagnostics: [{ code: 'chunk-failed', message: `chunking failed: ${errorMessage(e)}`, path, severity: 'error' }] };
  }
}

async function dispatch(doc: SourceDocument, ctx: ChunkContext, onProgress?: (fraction: number) => void): Promise<FileChunks> {
  if (looksMinified(doc.text)) return lineChunks(doc, ctx.policy);
  const structural = lineStrategyFor(doc);
  const ast = ctx.strategy === 'ast' && structural === 'lines' ? ctx.ast : undefined;
  if (ast && safeSupports(ast, doc.language)) {
    let reason: string;
    try {
      const result = await ast.chunk(doc, ctx.policy, onProgress);
      if (result) return { ...result, path: doc.path, strategy: 'ast' };
      reason = 'the parse produced no usable chunks';
    } catch (e) {
      reason = `the AST chunker failed: ${errorMessage(e)}`;
    }
    return lineChunks(doc, ctx.policy, {
      code: 'ast-fallback',
      message: `${reason}; used line chunks`,
      path: doc.path,
      severity: 'warning',
    });
  }
  return lineChunks(doc, ctx.policy);
}

/** Line chunks for a document, with an optional diagnostic explaining why. */
export function lineChunks(doc: SourceDocument, policy: ChunkingPolicy, diagnostic?: Diagnostic): FileChunks {
  const diagnostics = diagnostic ? [diagnostic] : [];
  try {
    return { path: doc.path, chunks: chunkByLines(doc, policy), strategy: lineStrategyFor(doc), diagnostics };
  } catch (e) {
    // A bug in a line chunker must cost one file, not the run.
    diagnostics.push({ code: 'chunk-failed', message: `line chunking failed: ${errorMessage(e)}`, path: doc.path, severity: 'error' });
    return { path: doc.path, chunks: [], strategy: 'lines', diagnostics };
  }
}

function safeSupports(ast: AstChunkerLike, language: string): boolean {
  try {
    return ast.supports(language);
  } catch {
    return false;
  }
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
