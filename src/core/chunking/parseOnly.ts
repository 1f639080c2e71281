// The benchmark's baseline: parse a document with tree-sitter and throw the tree away. The
// chunking pipeline is judged against this (goal: at most 1.3x the cost of parsing alone).
import * as path from 'node:path';
import type { SourceDocument } from '../types';
import { GRAMMAR_FILES, GrammarCache, initRuntime } from './ast/runtime';
import { firstGrammar, grammarsFor } from './ast';

export interface ParseOnly {
  /** Loads grammars before parsing starts, as the chunker does (AstChunker.prepare). */
  prepare(languages: readonly string[]): Promise<void>;
  parse(doc: SourceDocument): Promise<void>;
}

export async function createParseOnly(grammarsDir: string): Promise<ParseOnly> {
  await initRuntime(path.join(grammarsDir, 'tree-sitter.wasm'));
  const grammars = new GrammarCache(grammarsDir);
  return {
    async prepare(languages) {
      for (const language of languages) for (const grammar of GRAMMAR_FILES[language] ? grammarsFor(language) : []) await grammars.parserFor(grammar);
    },
    async parse(doc) {
      if (!GRAMMAR_FILES[doc.language]) return;
      // The grammar the chunker parses with first (C++ for a .h file): the floor it is judged by.
      const parser = await grammars.parserFor(firstGrammar(doc));
      parser.parse(doc.text)?.delete();
    },
  };
}
