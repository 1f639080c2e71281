// The benchmark's baseline: parse a document with tree-sitter and throw the tree away. The
// chunking pipeline is judged against this (goal: at most 1.3x the cost of parsing alone).
import * as path from 'node:path';
import type { SourceDocument } from '../types';
import { GRAMMAR_FILES, GrammarCache, initRuntime } from './ast/runtime';

export async function createParseOnly(grammarsDir: string): Promise<(doc: SourceDocument) => Promise<void>> {
  await initRuntime(path.join(grammarsDir, 'tree-sitter.wasm'));
  const grammars = new GrammarCache(grammarsDir);
  return async (doc) => {
    if (!GRAMMAR_FILES[doc.language]) return;
    const parser = await grammars.parserFor(doc.language);
    parser.parse(doc.text)?.delete();
  };
}
