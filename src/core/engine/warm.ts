// Readying a long-lived host for its next save and its next queries (Engine.warmUp).
import type { IndexStore } from '../store/store';
import { warmNamedDocuments } from '../search/namedDocs';
import type { Chunkers } from './chunkers';
import { importGraphInSteps, indexByBaseName, type View } from './view';

/**
 * Reads in, segment by segment, the index sections queries of a long-lived host end up
 * reading whole anyway, and decodes its most common terms' postings into the cache they
 * would reach after a few queries (Segment.warmForQueries, warmPostings), so no query pays
 * for that. Yields between steps: a query asked meanwhile waits for at most one step.
 */
export async function warmIndex(store: IndexStore): Promise<void> {
  try {
    // The store's snapshot, not a view: a damaged store is left for the next query to report
    // and rebuild, never repaired silently here. Its segments are the ones views share.
    const snapshot = store.snapshot();
    const yieldToQueries = () => new Promise((resolve) => setImmediate(resolve));
    for (const segment of snapshot?.segments ?? []) {
      segment.warmForQueries();
      await yieldToQueries();
      const warmed = segment.warmPostings();
      await yieldToQueries();
      for (const term of warmed) warmNamedDocuments(segment, term);
      await yieldToQueries();
    }
  } catch {
    // A damaged section surfaces (and is repaired) at the next query.
  }
}

/** Loads the parsers of the index's `count` most common languages (see Engine.warmUp for why). */
export async function warmChunker(store: IndexStore, chunkers: Chunkers, count: number): Promise<void> {
  try {
    const manifest = store.readManifest();
    if (!manifest) return;
    const pathByLanguage = new Map<string, string>();
    const filesByLanguage = new Map<string, number>();
    for (const [p, language] of store.readState(manifest).languages()) {
      filesByLanguage.set(language, (filesByLanguage.get(language) ?? 0) + 1);
      if (!pathByLanguage.has(language)) pathByLanguage.set(language, p);
    }
    const languages = [...filesByLanguage].sort((x, y) => y[1] - x[1]).slice(0, count).map(([l]) => l);
    await chunkers.warm(languages.map((language) => ({ language, path: pathByLanguage.get(language) as string })));
  } catch {
    // A cold parser only costs the next save some time.
  }
}

/**
 * Builds what a task text's answer reads of the whole repository (files by base name, the
 * import graph; packs read the graph too) for a view, so no answer builds them. A query asked
 * meanwhile waits for one step; one that built them first is left its own.
 */
export async function warmView(store: IndexStore, view: View): Promise<void> {
  const yieldToQueries = () => new Promise((resolve) => setImmediate(resolve));
  try {
    view.baseNames ??= indexByBaseName(view.locator.paths());
    if (view.graph) return;
    await yieldToQueries();
    const graph = await importGraphInSteps(store, view, yieldToQueries);
    view.graph ??= graph;
  } catch {
    // Answers build what they need themselves.
  }
}
