// Syntax the language accepts but its grammar still rejects, rewritten before parsing to an
// equivalent the grammar reads. Each rewrite replaces characters in place with spaces, so every
// offset, row and column of the tree still points into the original text (chunks, names and
// spans are read from the original).

/**
 * `export type * from './x'` and `export type * as ns from './x'` (TypeScript 5.0). No release of
 * tree-sitter-typescript reads them, VS Code's build included (tree-sitter/tree-sitter-typescript
 * #348): the file gets a syntax-error region. Read as `export * from`, the re-export it is.
 * Anchored at a line start so that a comment or string mentioning it is left alone.
 */
const TYPE_STAR_EXPORT = /^([ \t]*export[ \t]+)type(?=[ \t]*\*)/gm;

const TYPESCRIPT = new Set(['typescript', 'tsx']);

/** The text to hand the grammar of `language`: `text` itself unless it holds a gap (above). */
export function bridgeGrammarGaps(language: string | undefined, text: string): string {
  if (!language || !TYPESCRIPT.has(language) || !text.includes('type')) return text;
  return text.replace(TYPE_STAR_EXPORT, '$1    ');
}
