// What the settings mean to the engine: discovery options (which files) and chunking options
// (how they are cut). Pure functions, no VS Code API, so plain unit tests cover them.
import { type ChunkingPolicy, type DiscoveryOptions, LANGUAGES_BY_FILENAME, LANGUAGES_BY_SUFFIX, resolveLanguageFilter } from '../core/clientApi';
import type { ChunkStrategy } from '../core/api';
import type { CairnSettings } from './settings';

/**
 * The discovery allow-list for the enabled languages, derived from the one language table.
 * Undefined when every language is enabled (the engine's defaults then apply unchanged).
 */
export function languageAllowList(languages: readonly string[]): Pick<DiscoveryOptions, 'extensions' | 'filenames'> | undefined {
  if (languages.length === 0) return undefined;
  const ids = new Set(languages.flatMap((l) => resolveLanguageFilter(l)));
  const pick = (table: Readonly<Record<string, { id: string }>>) => Object.keys(table).filter((k) => ids.has(table[k]!.id)).sort();
  return { extensions: pick(LANGUAGES_BY_SUFFIX), filenames: pick(LANGUAGES_BY_FILENAME) };
}

/** What the indexer reads from the settings: files to consider. A change means an incremental refresh. */
export function discoveryOptions(s: CairnSettings): Partial<DiscoveryOptions> {
  return { include: s.include, exclude: s.exclude, maxFileBytes: s.maxFileSize, ...languageAllowList(s.languages) };
}

/** How files are cut. A change makes the engine re-chunk every file (its config hash changes). */
export function chunkingOptions(s: CairnSettings): { strategy: ChunkStrategy; policy: Partial<ChunkingPolicy> } {
  return { strategy: s.chunking.strategy, policy: { lineChunkChars: { ...s.chunking.lineChunkChars }, astMaxChars: s.chunking.astMaxChars } };
}
