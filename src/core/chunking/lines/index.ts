// Line-based chunkers, chosen by language: structural for prose (headings), YAML (keys) and
// TOML/INI (sections), plain greedy line packing for everything else; minified text, whatever
// its language, in bounded character pieces.
import type { Chunk, FileChunks, SourceDocument } from '../../types';
import { languageInfo } from '../../languages';
import { lineTargetFor, type ChunkingPolicy } from '../policy';
import { chunkProse } from './markdown';
import { chunkMinified, looksMinified } from './minified';
import { chunkPlain } from './plain';
import { chunkTomlLike } from './toml';
import { chunkYaml } from './yaml';

/** Which line chunker handles a language; `lines` covers plain and TOML/INI sections. */
export type LineStrategy = Extract<FileChunks['strategy'], 'markdown' | 'yaml' | 'lines'>;

/** The language a document is chunked as (its own, or guessed from its path when missing). */
function languageOf(doc: SourceDocument): string {
  return doc.language || languageInfo(doc.path).id;
}

/** Which line chunker a document gets: `markdown` and `yaml` are structural, the rest `lines`. */
export function lineStrategyFor(doc: SourceDocument): LineStrategy {
  switch (languageOf(doc)) {
    case 'markdown':
    case 'restructuredtext':
    case 'asciidoc':
      return 'markdown';
    case 'yaml':
      return 'yaml';
    default:
      return 'lines';
  }
}

/** Chunks a document by lines, using its structure when the language has one we know. */
export function chunkByLines(doc: SourceDocument, policy: ChunkingPolicy): Chunk[] {
  if (looksMinified(doc.text)) return chunkMinified(doc);
  const target = lineTargetFor(doc.path, policy);
  const language = languageOf(doc);
  switch (language) {
    case 'markdown':
    case 'restructuredtext':
    case 'asciidoc':
      return chunkProse(doc, target, language);
    case 'yaml':
      return chunkYaml(doc, target);
    case 'toml':
    case 'ini':
      return chunkTomlLike(doc, target);
    default:
      return chunkPlain(doc, target);
  }
}
